"""A physics-informed network written as the classic TensorFlow 1 PINN scripts are.

Only the import differs from the TensorFlow 1 original: the graph is built
once with placeholders for the collocation and boundary points, the network's
second derivative comes from ``tf.gradients`` taken twice, and Adam trains it
through ``minimize`` in a ``Session`` loop with ``feed_dict``. The problem is
the 1-D Poisson equation u''(x) = -pi^2 sin(pi x) on [-1, 1] with
u(-1) = u(1) = 0 (exact solution sin(pi x)). The weights and points come from
NumPy's seeded generator, so the real TensorFlow prints the same losses (to float32
rounding: 1e-5 after 200 steps).

Run: ``python examples/pinn_tf1_graph.py [iterations]``.
"""

import sys

import numpy as np

import unigrad.compat.tensorflow.compat.v1 as tf  # was: import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


class PhysicsInformedNN:
    """u(x) by a tanh network; the loss holds the residual u_xx + pi^2 sin(pi x)."""

    def __init__(self, x_interior, x_boundary, layers, seed=1234):
        self.x_interior = x_interior
        self.x_boundary = x_boundary
        self.weights, self.biases = self.initialize(layers, np.random.default_rng(seed))

        self.x_f = tf.placeholder(tf.float32, shape=[None, 1])
        self.x_b = tf.placeholder(tf.float32, shape=[None, 1])

        self.u_b = self.net_u(self.x_b)
        self.f = self.net_f(self.x_f)
        self.loss = tf.reduce_mean(tf.square(self.u_b)) + tf.reduce_mean(tf.square(self.f))

        self.optimizer = tf.train.AdamOptimizer(learning_rate=0.01)
        self.train_op = self.optimizer.minimize(self.loss)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    @staticmethod
    def initialize(layers, rng):
        weights, biases = [], []
        for fan_in, fan_out in zip(layers[:-1], layers[1:]):
            stddev = np.sqrt(2.0 / (fan_in + fan_out))
            weights.append(tf.Variable(
                (rng.standard_normal((fan_in, fan_out)) * stddev).astype(np.float32)))
            biases.append(tf.Variable(np.zeros((1, fan_out), np.float32)))
        return weights, biases

    def net_u(self, x):
        hidden = x
        for weight, bias in zip(self.weights[:-1], self.biases[:-1]):
            hidden = tf.tanh(tf.add(tf.matmul(hidden, weight), bias))
        return tf.add(tf.matmul(hidden, self.weights[-1]), self.biases[-1])

    def net_f(self, x):
        u = self.net_u(x)
        u_x = tf.gradients(u, x)[0]
        u_xx = tf.gradients(u_x, x)[0]
        return u_xx + np.pi ** 2 * tf.sin(np.pi * x)

    def train(self, iterations):
        feed = {self.x_f: self.x_interior, self.x_b: self.x_boundary}
        for iteration in range(iterations):
            self.sess.run(self.train_op, feed)
            if iteration % 100 == 0 or iteration == iterations - 1:
                print(f"It: {iteration}, Loss: {self.sess.run(self.loss, feed):.6e}")

    def predict(self, x):
        return self.sess.run(self.net_u(self.x_f), {self.x_f: x})


def main(iterations: int = 1000) -> float:
    x_interior = np.random.default_rng(0).uniform(-1.0, 1.0, (64, 1)).astype(np.float32)
    x_boundary = np.array([[-1.0], [1.0]], np.float32)
    model = PhysicsInformedNN(x_interior, x_boundary, [1, 20, 20, 1])
    model.train(iterations)
    x_test = np.linspace(-1.0, 1.0, 201, dtype=np.float32)[:, None]
    error = np.linalg.norm(model.predict(x_test) - np.sin(np.pi * x_test)) / \
        np.linalg.norm(np.sin(np.pi * x_test))
    print(f"relative L2 error on 201 test points: {error:.3e}")
    assert iterations < 300 or error < 0.02, f"the network did not learn sin(pi x): {error}"
    return float(error)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
