"""``tf.errors``: TensorFlow's exception classes, raised where TensorFlow's kernels raise them.

Each class takes TensorFlow's ``(node_def, op, message)`` arguments and prints
its message. ``InvalidArgumentError`` also derives from ``ValueError`` (and
``OutOfRangeError`` from ``IndexError``), so code written against unigrad's
native errors keeps catching them.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> try:
    ...     tf.data.Dataset.range(4).batch(0)
    ... except tf.errors.InvalidArgumentError as error:
    ...     print(error.message)
    Batch size must be greater than zero.
"""

from __future__ import annotations

__all__ = ["OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
           "DeadlineExceededError", "NotFoundError", "AlreadyExistsError",
           "PermissionDeniedError", "ResourceExhaustedError", "FailedPreconditionError",
           "AbortedError", "OutOfRangeError", "UnimplementedError", "InternalError",
           "UnavailableError", "DataLossError", "UnauthenticatedError"]


class OpError(Exception):
    """The base class of TensorFlow's runtime errors: ``OpError(node_def, op, message)``."""

    def __init__(self, node_def, op, message: str, *args) -> None:
        super().__init__(message, *args)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        return type(self), (self.node_def, self.op, self.message)


class CancelledError(OpError):
    """An operation was cancelled."""


class UnknownError(OpError):
    """An error of an unknown kind."""


class InvalidArgumentError(OpError, ValueError):
    """An operation received an invalid argument (a shape, a size, a value)."""


class DeadlineExceededError(OpError):
    """A deadline expired before the operation completed."""


class NotFoundError(OpError):
    """A requested entity (a file, a key) was not found."""


class AlreadyExistsError(OpError):
    """An entity an operation tried to create already exists."""


class PermissionDeniedError(OpError):
    """The caller may not run the operation."""


class ResourceExhaustedError(OpError):
    """Some resource (memory, a quota) is exhausted."""


class FailedPreconditionError(OpError):
    """The system is not in a state the operation needs (an uninitialized variable)."""


class AbortedError(OpError):
    """The operation was aborted (a concurrency conflict)."""


class OutOfRangeError(OpError, IndexError):
    """An operation went past the valid range (the end of a dataset's iterator)."""


class UnimplementedError(OpError):
    """The operation is not implemented or supported."""


class InternalError(OpError):
    """An internal invariant broke."""


class UnavailableError(OpError):
    """The service is unavailable."""


class DataLossError(OpError):
    """Unrecoverable data loss or corruption."""


class UnauthenticatedError(OpError):
    """The request has no valid authentication credentials."""
