"""Functional transforms: MindSpore-, JAX- and TensorFlow-style gradients over one engine."""

from .checkpoint import checkpoint
from .custom import call_with_bprop, custom_gradient, custom_jvp, custom_vjp, stop_gradient
from .functional import (
                         grad,
                         hessian,
                         hvp,
                         jacfwd,
                         jacobian,
                         jacrev,
                         jvp,
                         linearize,
                         value_and_grad,
                         vjp,
)
from .positions import get_grad
from .tf import GradientTape, UnconnectedGradients, gradients
from .tree import register_pytree_node, tree_flatten, tree_leaves, tree_map, tree_unflatten
from .vectorize import vmap

__all__ = ["grad", "value_and_grad", "get_grad", "vjp", "jvp", "linearize", "jacrev", "jacfwd",
           "jacobian", "hessian", "hvp", "stop_gradient", "custom_vjp", "custom_jvp",
           "custom_gradient", "call_with_bprop", "checkpoint", "gradients", "GradientTape",
           "UnconnectedGradients", "register_pytree_node", "tree_flatten", "tree_unflatten",
           "tree_leaves", "tree_map", "vmap"]
