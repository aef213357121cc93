"""Hypothesis strategies shared by the property tests of every parser: a valid text mutated by
random edits (the careless user: a cut file, a stray character, a huge or non-finite number, a
deep bracket run), and random JSON values (the hostile one). Kept small and fast: each test runs a
modest number of examples with no deadline, so the lot fits in the default test run."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st

#: the settings of every property test: modest, derandomized (the same examples every run, no
#: example database written into the repository), no per-example deadline
FAST = settings(max_examples=40, deadline=None, derandomize=True, database=None)

_NASTY = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "1e308",
    "-1e308",
    "9" * 5000,
    "[" * 200,
    "]",
    "{",
    '"',
    "\\",
    "\x00",
    "\x1b[31m",
    "\ufeff",
    "\n",
    ",",
    ":",
    "null",
    "true",
    "-0",
    "1e-9",
    "0",
    "\u2028",
    "x" * 300,
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=25,
)


@st.composite
def mutated(draw: st.DrawFn, text: str, max_edits: int = 3) -> str:
    """``text`` after 1..``max_edits`` random edits: cut, delete, insert, replace by a nasty token."""
    out = text
    for _ in range(draw(st.integers(min_value=1, max_value=max_edits))):
        n = len(out)
        i = draw(st.integers(min_value=0, max_value=n))
        j = draw(st.integers(min_value=i, max_value=min(n, i + 12)))
        op = draw(st.sampled_from(("cut", "delete", "insert", "replace")))
        token = draw(st.sampled_from(_NASTY) | st.text(max_size=4))
        if op == "cut":
            out = out[:i]
        elif op == "delete":
            out = out[:i] + out[j:]
        elif op == "insert":
            out = out[:i] + token + out[i:]
        else:
            out = out[:i] + token + out[j:]
    return out
