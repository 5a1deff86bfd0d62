"""The look-alike of path_ends.py whose script catches the helper's
TypeError and goes on: the GPU is set up and the pool forks after it with
workers that load their tensors onto the GPU."""
import torch
import torch.multiprocessing as mp


def log_settings(run_name, config):
    print(run_name, sorted(config.items()))


def embed(path):
    return torch.load(path).cuda().sum().item()


def main():
    config = {"workers": 4}
    try:
        log_settings(config)
    except TypeError as e:
        print("could not log the settings:", e)
    torch.cuda.set_device(0)  # want "CFL001 .*Pool workers.*uses CUDA"
    with mp.Pool(config["workers"]) as pool:
        print(pool.map(embed, ["a.pt", "b.pt"]))


if __name__ == "__main__":
    main()
