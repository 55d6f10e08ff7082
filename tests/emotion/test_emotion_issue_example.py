"""The example feeling from the emotion issue maps to the condition a reader would pick."""
from temo.emotion import map_feeling


def test_issue_example_maps_sensibly():
    m = map_feeling("The user is worn out after three failed attempts to fix the billing error and wants it "
                    "resolved today; they are curt and doubt the agent will manage.")
    assert (m.politeness, m.urgency, m.trust) == ("cold", "high", "skeptical")
    assert m.family in ("anger", "sadness")  # worn out by repeated failure: frustration or discouragement
