"""Pool workers handed a number read from the configuration of a model on
the GPU: the number is a plain value, so the workers are not seen to touch
CUDA. A warning names what could not be told, never an error."""
import multiprocessing as mp

from transformers import AutoModel


def resample(rate, n):
    return [rate * i for i in range(n)]


if __name__ == "__main__":
    model = AutoModel.from_pretrained("facebook/wav2vec2-base").to("cuda")  # want "CFL003 .*could not tell whether the objects passed to the child are on the GPU"
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.starmap(resample, [(model.config.sampling_rate, 3)]))
