"""Write the checkpoint fixtures of ``tests/compat/test_mindspore_training.py``.

``/tmp/msenv/bin/python make_checkpoints.py mindspore`` writes ``written_by_mindspore.ckpt``
with the real MindSpore 2.10; ``.venv/bin/python make_checkpoints.py unigrad`` writes
``written_by_unigrad.ckpt`` with ``unigrad.compat.mindspore``. Same content in both: a
two-layer network's Parameters (float32), a float16 and an int32 Parameter, and the
``append_dict`` entries ``epoch_num`` (int), ``lr`` (float) and ``note`` (str). The
recorded case ``case_training_checkpoint_fixtures`` loads both files with each framework.
"""

import sys
from pathlib import Path

import numpy as np


def write(ms, path: Path) -> None:
    network = ms.nn.SequentialCell([ms.nn.Dense(3, 2), ms.nn.ReLU(), ms.nn.Dense(2, 1)])
    for index, param in enumerate(network.get_parameters()):
        values = np.linspace(-1.0, 1.0, int(np.prod(param.shape)), dtype=np.float32) + index
        param.set_data(ms.Tensor(values.reshape(param.shape)))
    extras = [{"name": "half", "data": ms.Tensor(np.array([0.5, -2.25], np.float16))},
              {"name": "counts", "data": ms.Tensor(np.array([[1, -2], [3, 40000]], np.int32))}]
    params = [{"name": param.name, "data": param} for param in network.get_parameters()]
    ms.save_checkpoint(params + extras, str(path),
                       append_dict={"epoch_num": 7, "lr": 0.125, "note": "fixture"})


if __name__ == "__main__":
    framework = sys.argv[1]
    if framework == "mindspore":
        import mindspore as ms_module
        import mindspore.nn  # noqa: F401
    else:
        import unigrad.compat.mindspore as ms_module
    write(ms_module, Path(__file__).resolve().parent / f"written_by_{framework}.ckpt")
