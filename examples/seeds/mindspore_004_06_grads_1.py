# ruff: noqa  (seed code kept verbatim, apart from its import lines)
# Seed 004 (MindSpore gradient guide), verbatim apart from the import lines.
# In the seed this block continues the session started by the Net example; the
# Net definition and setup (net, its fixed weight, x, y) are repeated verbatim from
# the seed, without their prints, so that this file runs on its own.
import unigrad.compat.mindspore as ms
from unigrad.compat.mindspore import nn
class Net(nn.Cell):
    def __init__(self, in_channel, out_channel):
        super(Net, self).__init__()
        self.fc = nn.Dense(in_channel, out_channel, has_bias=False)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        logits = self.fc(x).squeeze()
        loss = self.loss(logits, y)
        return loss, logits

net = Net(3, 1)
net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32)) # 给全连接的weight设置固定值
x = ms.Tensor([[1, 2, 3]], ms.float32)
y = ms.Tensor(19, ms.float32)

# 对第一个输入求梯度
print("=== grads 1 ===")
grad_func = ms.grad(net, grad_position=0, weights=None, has_aux=True)
grad, logit = grad_func(x, y)
print("grad", grad)
print("logit", logit)
