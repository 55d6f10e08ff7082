"""The paper's collection protocol (Appendix A.3), in one dependency-free place."""

SPLIT = "train"  # roll out the training tasks
TRIALS = 1  # once each
ARMS = ["emotion"]  # with the emotion-conditioned user
MAX_STEPS = 50  # and a limit of 50 interaction steps
