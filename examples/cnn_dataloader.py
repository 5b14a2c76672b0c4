"""A small CNN trained from a DataLoader, written as a PyTorch script (only the imports differ).

The data are synthetic 1x12x12 images of three classes (a horizontal bar, a
vertical bar, or a diagonal, at random positions, under noise). A
``TensorDataset`` is split with ``random_split``, batched and shuffled by
``DataLoader``; the model uses Conv2d, BatchNorm2d, MaxPool2d,
AdaptiveAvgPool2d and Dropout, and trains with AdamW and OneCycleLR.

Run: ``python examples/cnn_dataloader.py``.
"""

import numpy as np

import unigrad.compat.torch as torch  # was: import torch
import unigrad.compat.torch.nn as nn  # was: import torch.nn as nn
import unigrad.compat.torch.nn.functional as F  # was: import torch.nn.functional as F
from unigrad.compat.torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
rng = np.random.default_rng(0)


def make_images(count):
    images = rng.normal(0.0, 0.3, size=(count, 1, 12, 12))
    labels = rng.integers(0, 3, size=count)
    for image, label in zip(images, labels):
        row, column = rng.integers(2, 10, size=2)
        if label == 0:
            image[0, row, 1:11] += 1.0
        elif label == 1:
            image[0, 1:11, column] += 1.0
        else:
            offset = rng.integers(-2, 3)
            for i in range(10):
                image[0, i + 1, int(np.clip(i + 1 + offset, 0, 11))] += 1.0
    return torch.tensor(images, dtype=torch.float32), torch.tensor(labels)


class SmallCNN(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(0.1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = F.relu(self.conv2(x))
        x = torch.flatten(self.gap(x), 1)
        return self.fc(self.dropout(x))


images, labels = make_images(600)
dataset = TensorDataset(images, labels)
train_set, test_set = random_split(dataset, [500, 100],
                                   generator=torch.Generator().manual_seed(42))
train_loader = DataLoader(train_set, batch_size=32, shuffle=True, drop_last=True)
test_loader = DataLoader(test_set, batch_size=50)

model = SmallCNN()
epochs = 6
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, epochs=epochs,
                                                steps_per_epoch=len(train_loader))
criterion = nn.CrossEntropyLoss()

for epoch in range(epochs):
    model.train()
    total = 0.0
    for batch_images, batch_labels in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(batch_images), batch_labels)
        loss.backward()
        optimizer.step()
        scheduler.step()
        total += loss.item()
    model.eval()
    correct = 0
    with torch.no_grad():
        for batch_images, batch_labels in test_loader:
            correct += (model(batch_images).argmax(dim=1) == batch_labels).sum().item()
    accuracy = correct / len(test_set)
    print(f"epoch {epoch}: train loss {total / len(train_loader):.4f}, "
          f"test accuracy {accuracy:.2f}")

assert accuracy > 0.9, accuracy
