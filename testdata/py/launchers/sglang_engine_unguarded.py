"""sglang's offline Engine at the top level of a script: it sets the spawn start
method and starts its scheduler processes in the constructor, and each
spawned child re-imports the script and constructs the Engine again while
bootstrapping (sglang's docs ask for the main guard)."""
import sglang as sgl

llm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct")  # want "CFL005"
print(llm.generate(["The capital of France is"], {"temperature": 0})[0]["text"])
llm.shutdown()
