"""The script logs its settings with a helper that takes the run's name and
its config, but calls it with the config alone: the TypeError ends main
there, before the GPU is set up and the pool forks."""
import torch
import torch.multiprocessing as mp


def log_settings(run_name, config):
    print(run_name, sorted(config.items()))


def embed(path):
    return torch.load(path).cuda().sum().item()


def main():
    config = {"workers": 4}
    log_settings(config)
    torch.cuda.set_device(0)
    with mp.Pool(config["workers"]) as pool:
        print(pool.map(embed, ["a.pt", "b.pt"]))


if __name__ == "__main__":
    main()
