"""Catalog fixture: transformers and sentence-transformers. Each probe calls one
catalogued API and then forks a worker that uses CUDA; initializers are
reported at the call (CFL001), known non-initializers stay silent. Evidence:
testdata/groundtruth/libraries.json and launchers.json (measured on an H200
with transformers 5.17.0 and sentence-transformers 6.0.1, on a one-layer BERT
built by the harness)."""
import multiprocessing as mp

import torch

MODEL_DIR = "checkpoints/tiny-bert"


def use_gpu():
    torch.zeros(1, device="cuda")


def fork_worker():
    p = mp.get_context("fork").Process(target=use_gpu)
    p.start()
    p.join()


def probe_import():
    # row: import transformers
    # evidence: libraries "transformers: import transformers"
    import transformers
    fork_worker()


def probe_pipeline_device_index():
    from transformers import pipeline

    # row: call transformers.pipeline
    # evidence: launchers "transformers: pipeline('feature-extraction', model=<tiny>, device=0)"
    extractor = pipeline("feature-extraction", model=MODEL_DIR, device=0)  # want "CFL001"
    print(extractor)
    fork_worker()


def probe_pipeline_no_device():
    from transformers import pipeline

    # row: call transformers.pipeline
    # evidence: launchers "transformers: pipeline('feature-extraction', model=<tiny>)"
    classifier = pipeline("sentiment-analysis", model=MODEL_DIR)  # want "CFL001"
    print(classifier)
    fork_worker()


def probe_pipeline_cpu():
    import transformers

    # row: call transformers.pipeline
    # evidence: launchers "transformers: pipeline('feature-extraction', model=<tiny>, device='cpu')"
    extractor = transformers.pipeline("feature-extraction", model=MODEL_DIR, device="cpu")
    print(extractor)
    fork_worker()


def probe_pipeline_minus_one():
    from transformers import pipeline

    # row: call transformers.pipeline
    # evidence: launchers "transformers: pipeline('feature-extraction', model=<tiny>, device=-1)"
    extractor = pipeline("feature-extraction", model=MODEL_DIR, device=-1)
    print(extractor)
    fork_worker()


def probe_from_pretrained_auto():
    from transformers import AutoModelForCausalLM

    # row: method .from_pretrained
    # evidence: launchers "transformers: AutoModel.from_pretrained(<tiny>, device_map='auto')"
    model = AutoModelForCausalLM.from_pretrained(MODEL_DIR, device_map="auto")  # want "CFL001"
    print(model)
    fork_worker()


def probe_from_pretrained_dict():
    from transformers import AutoModel

    # row: method .from_pretrained
    # evidence: launchers "transformers: AutoModel.from_pretrained(<tiny>, device_map={'': 0})"
    model = AutoModel.from_pretrained(MODEL_DIR, device_map={"": 0})  # want "CFL001"
    print(model)
    fork_worker()


def probe_from_pretrained_cpu():
    from transformers import AutoModel

    # row: method .from_pretrained
    # evidence: launchers "transformers: AutoModel.from_pretrained(<tiny>, device_map='cpu')"
    model = AutoModel.from_pretrained(MODEL_DIR, device_map="cpu")
    print(model)
    fork_worker()


def probe_from_pretrained_plain():
    from transformers import AutoModel, AutoTokenizer

    # row: method .from_pretrained
    # evidence: launchers "transformers: AutoModel.from_pretrained(<tiny>)"
    model = AutoModel.from_pretrained(MODEL_DIR)
    tokenizer = AutoTokenizer.from_pretrained(MODEL_DIR)
    print(model, tokenizer)
    fork_worker()


def probe_is_torch_cuda_available():
    from transformers.utils import is_torch_cuda_available

    # row: call transformers.utils.is_torch_cuda_available
    # evidence: libraries "transformers: import transformers; transformers.utils.is_torch_cuda_available()"
    if is_torch_cuda_available():  # want "CFL001"
        print("cuda")
    fork_worker()


def probe_is_torch_bf16_gpu_available():
    import transformers

    # row: call transformers.utils.is_torch_bf16_gpu_available
    # evidence: libraries "transformers: import transformers; transformers.utils.is_torch_bf16_gpu_available()"
    bf16 = transformers.is_torch_bf16_gpu_available()  # want "CFL001"
    print(bf16)
    fork_worker()


def probe_is_torch_tf32_available():
    from transformers.utils.import_utils import is_torch_tf32_available

    # row: call transformers.utils.is_torch_tf32_available
    # evidence: libraries "transformers: import transformers; transformers.utils.is_torch_tf32_available()"
    print(is_torch_tf32_available())  # want "CFL001"
    fork_worker()


def probe_training_arguments():
    from transformers import TrainingArguments

    # row: call transformers.TrainingArguments
    # evidence: libraries "transformers: from transformers import TrainingArguments; TrainingArguments(output_dir=<scratch dir>)"
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)  # want "CFL001"
    print(args)
    fork_worker()


def probe_training_arguments_cpu():
    from transformers import TrainingArguments

    # row: call transformers.TrainingArguments
    # evidence: libraries "transformers: from transformers import TrainingArguments; TrainingArguments(output_dir=<scratch dir>)"
    args = TrainingArguments(output_dir="out", use_cpu=True)
    print(args)
    fork_worker()


def probe_seq2seq_training_arguments():
    from transformers import Seq2SeqTrainingArguments

    # row: call transformers.Seq2SeqTrainingArguments
    # evidence: code huggingface/transformers src/transformers/training_args_seq2seq.py
    args = Seq2SeqTrainingArguments(output_dir="out", predict_with_generate=True)  # want "CFL001"
    print(args)
    fork_worker()


def probe_set_seed():
    from transformers import set_seed

    # row: call transformers.set_seed
    # evidence: libraries "transformers: import transformers; transformers.set_seed(0)"
    set_seed(0)
    fork_worker()


def probe_import_sentence_transformers():
    # row: import sentence_transformers
    # evidence: libraries "import: import sentence_transformers"
    import sentence_transformers
    fork_worker()


def probe_sentence_transformer_cuda():
    from sentence_transformers import SentenceTransformer

    # row: call sentence_transformers.SentenceTransformer
    # evidence: launchers "sentence_transformers: SentenceTransformer(<tiny>, device='cuda')"
    encoder = SentenceTransformer(MODEL_DIR, device="cuda")  # want "CFL001"
    print(encoder)
    fork_worker()


def probe_sentence_transformer_default():
    from sentence_transformers import SentenceTransformer

    # row: call sentence_transformers.SentenceTransformer
    # evidence: launchers "sentence_transformers: SentenceTransformer(<tiny>)"
    encoder = SentenceTransformer(MODEL_DIR)  # want "CFL001"
    print(encoder)
    fork_worker()


def probe_sentence_transformer_cpu():
    from sentence_transformers import SentenceTransformer

    # row: call sentence_transformers.SentenceTransformer
    # evidence: launchers "sentence_transformers: SentenceTransformer(<tiny>, device='cpu')"
    encoder = SentenceTransformer(MODEL_DIR, device="cpu")
    print(encoder)
    fork_worker()


def probe_multi_process_pool_all_devices():
    from sentence_transformers import SentenceTransformer

    encoder = SentenceTransformer(MODEL_DIR, device="cpu")
    # row: call sentence_transformers.SentenceTransformer().start_multi_process_pool
    # evidence: code UKPLab/sentence-transformers sentence_transformers/SentenceTransformer.py
    pool = encoder.start_multi_process_pool()  # want "CFL001"
    encoder.stop_multi_process_pool(pool)
    fork_worker()


def probe_multi_process_pool_cpu_workers():
    from sentence_transformers import SentenceTransformer

    encoder = SentenceTransformer(MODEL_DIR, device="cpu")
    # row: call sentence_transformers.SentenceTransformer().start_multi_process_pool
    # evidence: code UKPLab/sentence-transformers sentence_transformers/SentenceTransformer.py
    pool = encoder.start_multi_process_pool(["cpu", "cpu"])
    encoder.stop_multi_process_pool(pool)
    fork_worker()


def probe_encode_multi_process():
    from sentence_transformers import SentenceTransformer

    encoder = SentenceTransformer(MODEL_DIR, device="cpu")
    pool = encoder.start_multi_process_pool(["cpu", "cpu"])
    # row: call sentence_transformers.SentenceTransformer().encode_multi_process
    # evidence: code UKPLab/sentence-transformers sentence_transformers/SentenceTransformer.py
    print(encoder.encode_multi_process(["a sentence"], pool).shape)
    encoder.stop_multi_process_pool(pool)
    fork_worker()
