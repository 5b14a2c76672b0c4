"""PyTorch's OpInfo database against ``unigrad.compat.torch``.

For every OpInfo entry whose op ``unigrad.compat.torch`` provides, every CPU
float64 sample goes through both and the values and vjp gradients must agree
(:mod:`tests.compat.opinfo_runner`); so must every complex128 sample of the
entries that have them (gradients by PyTorch's conjugate-Wirtinger convention).
Entries that disagree today are listed in ``KNOWN_DIFFERENCES`` and
``KNOWN_COMPLEX_DIFFERENCES`` with the reason (also in the README); they are
strict xfails, so one that starts agreeing must be taken off the list.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("expecttest")

from .opinfo_runner import check_entry, database, entry_id, is_provided  # noqa: E402

pytestmark = pytest.mark.torch

# entry id -> why unigrad disagrees with torch on some sample
KNOWN_DIFFERENCES: dict[str, str] = {
    "special.bessel_j0": "torch's CPU kernel is accurate to about 1e-7 near the zeros; unigrad "
                         "matches SciPy to 1e-15",
    "special.bessel_y1": "torch's CPU kernel is accurate to about 1e-7 near the zeros; unigrad "
                         "matches SciPy to 1e-15",
    "cov": "the aweights gradient of a two-observation sample is exactly 0; torch's "
           "cancelling sum leaves about 1e-6",
    "nn.functional.batch_norm": "torch also accepts a 1-D input of size 0; unigrad wants "
                                "(N, C, ...)",
    "gather": "torch skips the index checks (dtype, number of dimensions) for an empty index",
}

# entry id -> why its complex128 samples disagree (the float64 ones agree)
KNOWN_COMPLEX_DIFFERENCES: dict[str, str] = {
    "logcumsumexp": "the imaginary parts can differ by a multiple of 2 pi (torch accumulates "
                    "unwrapped phases)",
    "cov": KNOWN_DIFFERENCES["cov"],
    "gather": KNOWN_DIFFERENCES["gather"],
}
PROVIDED = [entry for entry in database() if is_provided(entry)]


def _param(entry):
    identifier = entry_id(entry)
    marks = ()
    if identifier in KNOWN_DIFFERENCES:
        marks = pytest.mark.xfail(reason=KNOWN_DIFFERENCES[identifier], strict=True)
    return pytest.param(entry, id=identifier, marks=marks)


@pytest.mark.parametrize("entry", [_param(entry) for entry in PROVIDED])
def test_entry_agrees_with_torch(entry):
    outcome = check_entry(entry)
    if outcome.status == "skip":
        pytest.skip(outcome.reason)
    assert outcome.status == "pass", outcome.reason


def _complex_param(entry):
    identifier = entry_id(entry)
    marks = ()
    if identifier in KNOWN_COMPLEX_DIFFERENCES:
        marks = pytest.mark.xfail(reason=KNOWN_COMPLEX_DIFFERENCES[identifier], strict=True)
    return pytest.param(entry, id=identifier, marks=marks)


def _has_complex_samples(entry) -> bool:
    import torch
    return torch.complex128 in entry.supported_dtypes("cpu")


COMPLEX_PROVIDED = [entry for entry in PROVIDED if _has_complex_samples(entry)]


@pytest.mark.parametrize("entry", [_complex_param(entry) for entry in COMPLEX_PROVIDED])
def test_entry_agrees_with_torch_on_complex_samples(entry):
    outcome = check_entry(entry, complex_samples=True)
    if outcome.status == "skip":
        pytest.skip(outcome.reason)
    assert outcome.status == "pass", outcome.reason


def test_complex_agreement_rate():
    """Every fft.* and linalg.* entry, and at least 85% of all the provided entries with
    complex128 samples, agree on every one of them."""
    ids = [entry_id(entry) for entry in COMPLEX_PROVIDED]
    spectral_and_linear = [name for name in ids if name.startswith(("fft.", "linalg."))]
    assert len(spectral_and_linear) > 50
    assert not set(spectral_and_linear) & set(KNOWN_COMPLEX_DIFFERENCES)
    agreeing = [name for name in ids if name not in KNOWN_COMPLEX_DIFFERENCES]
    assert len(agreeing) >= 0.85 * len(ids), (len(agreeing), len(ids))


def test_known_differences_are_provided_entries():
    provided = {entry_id(entry) for entry in PROVIDED}
    assert set(KNOWN_DIFFERENCES) <= provided, set(KNOWN_DIFFERENCES) - provided


def test_agreement_rate_on_autograd_entries():
    """At least 85% of the provided OpInfo entries that support autograd agree on every
    sample (the per-entry tests enforce that exactly the listed ones do not)."""
    autograd = [entry_id(entry) for entry in PROVIDED if entry.supports_autograd]
    agreeing = [name for name in autograd if name not in KNOWN_DIFFERENCES]
    assert len(agreeing) >= 0.85 * len(autograd), (len(agreeing), len(autograd))


def test_known_differences_are_listed_in_the_readme():
    import pathlib
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("### Checked against PyTorch", 1)[1].split("\n## ", 1)[0]
    missing = [name for name in list(KNOWN_DIFFERENCES) + list(KNOWN_COMPLEX_DIFFERENCES)
               if f"`{name}`" not in section]
    assert not missing, f"known OpInfo differences missing from the README: {missing}"
