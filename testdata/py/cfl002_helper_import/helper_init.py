"""Fork matrix: "forkserver: helper module inits at import (imported by main top level)"
measured ok on 3.12 (no __main__ preload there); broken once the server imports main."""
import torch

X = torch.zeros(1, device="cuda")  # want "CFL002 .*in `helper_init`, which it imports at its top level.*3\\.13\\.8\\+, 3\\.14\\.1\\+, 3\\.15" "CFL004 .*`helper_init`.*3\\.11–3\\.13\\.7, 3\\.14\\.0"
