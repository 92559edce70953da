import numpy as np

# A tiny 4x5 grayscale "image" with one bright corner.
img = np.array([
    [10, 20, 30, 40, 250],
    [15, 25, 35, 45, 240],
    [20, 30, 40, 50, 230],
    [25, 35, 45, 55, 220],
], dtype=np.uint8)
print(img.dtype, img.shape, img.min(), img.max())

# Brighten by 40 without wrapping around: compute in a wider type, clip, cast back.
brighter = np.clip(img.astype(np.int16) + 40, 0, 255).astype(np.uint8)
print(brighter)

# Wrapping is what happens without the cast.
print(img[0] + np.uint8(10))

# Normalise to [0, 1] floats and back.
as_float = img / 255.0
print(as_float.dtype, round(float(as_float.max()), 4))
back = (as_float * 255).round().astype(np.uint8)
print(np.array_equal(back, img))

# Invert, threshold and flip.
print(255 - img)
print((img > 100).astype(np.uint8))
print(img[:, ::-1])

# An RGB image from three channels, and its gray mean.
rgb = np.stack([img, img // 2, img // 4], axis=-1)
print(rgb.shape, rgb.dtype)
gray = rgb.mean(axis=-1).astype(np.uint8)
print(gray)
