#!/usr/bin/env python3
"""Writes a deterministic JSON document of about SIZE_MB megabytes (default 20) to PATH."""
import json, random, sys

path = sys.argv[1]
target = int(float(sys.argv[2] if len(sys.argv) > 2 else 20) * 1024 * 1024)
rng = random.Random(42)
words = ["alpha", "beta", "gamma", "delta", "café", "naïve", "東京", "line\nbreak", "quote\"d", "emoji 😀"]

def order(i):
    return {
        "id": i,
        "uuid": "%032x" % rng.getrandbits(128),
        "customer": {"name": " ".join(rng.choice(words) for _ in range(2)), "vip": rng.random() < 0.1,
                     "email": "user%d@example.com" % i, "balance": round(rng.uniform(-1000, 1000), 2)},
        "items": [{"sku": "SKU-%06d" % rng.randrange(10**6), "price": round(rng.uniform(0.5, 500), 2),
                   "qty": rng.randrange(1, 10), "tags": rng.sample(words, 2),
                   "big": 12345678901234567890 if rng.random() < 0.01 else rng.randrange(10**9)}
                  for _ in range(rng.randrange(1, 6))],
        "note": None if rng.random() < 0.5 else " ".join(rng.choice(words) for _ in range(8)),
        "ratio": rng.random(),
    }

orders, size, i = [], 0, 0
while size < target:
    o = order(i)
    size += len(json.dumps(o, ensure_ascii=False).encode()) + 1
    orders.append(o)
    i += 1
with open(path, "w", encoding="utf-8") as f:
    json.dump({"generated": True, "orders": orders}, f, ensure_ascii=False)
