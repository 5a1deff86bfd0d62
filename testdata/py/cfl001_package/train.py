"""Entry script: `python train.py` runs the package's main()."""
from trainer.run import main

if __name__ == "__main__":
    main()
