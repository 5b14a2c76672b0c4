"""Op-table spec for ``tf.print``'s primitive (``tensorflow_print``): an impure op whose
result is a 0-d ``False`` (what keeps it in a graph); the text goes to ``/dev/null`` here
(its format is checked against TensorFlow's records in ``tensorflow_names_cases.py``).
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
from unigrad.compat.tensorflow._printing import _print_p

from .spec import OpSpec, Sample, normal


def _printed(x):
    return _print_p(ug.zeros(()), x, pieces=("x: ", ""), summarize=3, end="\n",
                    stream="file:///dev/null")


def _samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 3, 4),), label="matrix"),
            Sample((normal(rng),), label="scalar")]


OPS = [
    OpSpec("tensorflow_print", _printed, lambda x: np.zeros((), np.bool_), _samples,
           primitives=("tensorflow_print",), grad=False,
           vmap=False),  # an effect: printing once per batch element is not a batched op
]
