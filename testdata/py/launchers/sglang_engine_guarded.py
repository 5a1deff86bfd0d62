"""Look-alike of sglang_engine_unguarded.py under the main guard: the spawned
children re-import the script but do not reach the Engine."""
import sglang as sgl


def main():
    llm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct")
    print(llm.generate(["The capital of France is"], {"temperature": 0})[0]["text"])
    llm.shutdown()


if __name__ == "__main__":
    main()
