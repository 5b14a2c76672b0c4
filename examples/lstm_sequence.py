"""An LSTM sequence classifier trained from a DataLoader, as a PyTorch script
(only the imports differ).

Each synthetic sequence holds 16 noisy samples of a sine wave whose frequency
is one of three values; the model reads the sequence with a two-layer
``nn.LSTM(batch_first=True)`` and classifies the frequency from the last
hidden state. Variable lengths go through ``pack_padded_sequence``.

Run: ``python examples/lstm_sequence.py``.
"""

import numpy as np

import unigrad.compat.torch as torch  # was: import torch
import unigrad.compat.torch.nn as nn  # was: import torch.nn as nn
from unigrad.compat.torch.nn.utils.rnn import pack_padded_sequence
from unigrad.compat.torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
FREQUENCIES = (0.5, 1.5, 3.0)


def make_sequences(count, steps=16):
    labels = rng.integers(0, len(FREQUENCIES), size=count)
    lengths = rng.integers(10, steps + 1, size=count)
    time = np.linspace(0, 2 * np.pi, steps)
    phases = rng.uniform(0, 2 * np.pi, size=count)
    waves = np.sin(np.outer(np.take(FREQUENCIES, labels), time) + phases[:, None])
    waves += rng.normal(0, 0.1, size=waves.shape)
    waves[np.arange(steps)[None, :] >= lengths[:, None]] = 0.0  # padding after each end
    return (torch.tensor(waves[:, :, None], dtype=torch.float32), torch.tensor(labels),
            torch.tensor(lengths))


class SequenceClassifier(nn.Module):
    def __init__(self, hidden=24, classes=3):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, sequences, lengths):
        packed = pack_padded_sequence(sequences, lengths, batch_first=True,
                                      enforce_sorted=False)
        _, (hidden, _) = self.lstm(packed)
        return self.head(hidden[-1])


train = TensorDataset(*make_sequences(320))
test = TensorDataset(*make_sequences(96))
train_loader = DataLoader(train, batch_size=32, shuffle=True)
test_loader = DataLoader(test, batch_size=96)

model = SequenceClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()
for epoch in range(10):
    total = 0.0
    for sequences, labels, lengths in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(sequences, lengths), labels)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        total += loss.item()
    with torch.no_grad():
        sequences, labels, lengths = next(iter(test_loader))
        accuracy = (model(sequences, lengths).argmax(1) == labels).float().mean().item()
    print(f"epoch {epoch}: train loss {total / len(train_loader):.4f}, "
          f"test accuracy {accuracy:.2f}")

assert accuracy > 0.9, accuracy
