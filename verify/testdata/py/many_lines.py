"""For the SIGPIPE test: prints more lines than a reader that stops after the first will take."""
import sys

if __name__ == "__main__":
    for i in range(200000):
        sys.stdout.write("line %d\n" % i)
    sys.stdout.flush()
