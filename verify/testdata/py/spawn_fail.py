"""Sets the start method at the top level: every spawn child runs the top level again and dies of
"RuntimeError: context has already been set". The parent exits 0 regardless."""
import multiprocessing as mp


def work():
    print("never reached", flush=True)


mp.set_start_method("spawn")

if __name__ == "__main__":
    procs = [mp.Process(target=work) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    print("EXIT_CODES", [p.exitcode for p in procs], flush=True)
