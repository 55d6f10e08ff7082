"""Tracer's training half: collect rollouts on the training split, select the trajectories worth
learning from, export them in TRL's conversational format, and fine-tune with TRL.

`collect`, `select`, `tables`, `export` and `card` need only the core package; `sft` imports torch,
transformers and trl lazily (the optional extra `temo[train]`).
"""
