import numpy as np

board = np.zeros((6, 6), dtype=int)
board[1, 2] = board[2, 3] = board[3, 1] = board[3, 2] = board[3, 3] = 1  # a glider


def step(b):
    neighbours = sum(np.roll(np.roll(b, dy, axis=0), dx, axis=1)
                     for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    return ((neighbours == 3) | ((b == 1) & (neighbours == 2))).astype(int)


for _ in range(4):
    board = step(board)
print(board)
print("alive:", board.sum())
print("rows with life:", np.any(board, axis=1).nonzero()[0])
