"""``tf.data``: ``tf.data.Dataset`` over :mod:`unigrad.data`.
"""

__all__: list[str] = []
