import numpy as np

# Daily temperatures for two weeks in three cities.
temps = np.array([
    [12.1, 13.4, 11.8, 14.2, 15.0, 13.3, 12.9, 11.5, 12.2, 14.8, 16.1, 15.4, 13.9, 12.7],
    [22.3, 23.1, 24.0, 22.8, 21.9, 23.5, 24.4, 25.0, 24.1, 23.3, 22.7, 22.0, 21.5, 22.9],
    [5.0, 4.2, 3.9, 6.1, 7.3, 6.8, 5.5, 4.9, 3.2, 2.8, 4.4, 5.9, 6.6, 7.0],
])
cities = ["Lisbon", "Cairo", "Oslo"]
weekly = temps.reshape(3, 2, 7).mean(axis=2)
print(np.round(weekly, 2))
warmest_day = temps.argmax(axis=1)
for city, day, t in zip(cities, warmest_day, temps.max(axis=1), strict=True):
    print(f"{city}: warmest on day {day} at {t}")
anomaly = temps - temps.mean(axis=1, keepdims=True)
print(np.round(anomaly[:, :3], 2))
print("days above 15 in Lisbon:", int((temps[0] > 15).sum()))
print("coldest overall:", np.unravel_index(temps.argmin(), temps.shape))
fahrenheit = temps * 9 / 5 + 32
print(np.round(fahrenheit[2, :4], 1))
vals, counts = np.unique(np.floor(temps[2]).astype(int), return_counts=True)
print(vals, counts)
