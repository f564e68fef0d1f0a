"""Writes the data files the programs read, synthetic and deterministic.

    python3 make_data.py WORK_DIR

WORK_DIR/word_language_model/data/wikitext-2/{train,valid,test}.txt
    Word-level text like WikiText-2: 33,278 distinct words (its vocabulary size),
    Zipf-distributed, lines of 5-40 words. Train has 600,000 words (the real file
    2.09 M: a shorter epoch), valid and test 60,000 each.
WORK_DIR/nanoGPT/data/shakespeare_char/{train,val}.bin, meta.pkl
    As data/shakespeare_char/prepare.py writes them: uint16 token ids of a
    65-character vocabulary, 1,003,854 train and 111,540 val tokens (the real
    sizes), drawn from the characters' frequencies in English text.
WORK_DIR/gat/cora/{cora.content,cora.cites}
    A Cora-like citation graph in linqs' format (below, cora()).
WORK_DIR/gcn/offline-files/cora.tgz
    The same two files as linqs' cora.tgz packs them (cora/cora.content,
    cora/cora.cites), which gcn downloads and unpacks into ./cora/ on every run:
    offline.py answers its requests.get from this file. Deterministic (no
    modification times, gzip's included).
"""
import gzip
import io
import os
import pickle
import sys
import tarfile

import numpy as np


def words(rng, vocab, n, path):
    ranks = np.arange(1, len(vocab) + 1, dtype=np.float64)
    p = 1.0 / ranks
    p /= p.sum()
    ids = rng.choice(len(vocab), size=n, p=p)
    if path.endswith("train.txt"):
        ids[: len(vocab)] = rng.permutation(len(vocab))  # every word once: the full vocabulary
    with open(path, "w") as f:
        i = 0
        while i < n:
            k = int(rng.integers(5, 41))
            f.write(" " + " ".join(vocab[j] for j in ids[i:i + k]) + " \n")
            i += k


def main():
    work = sys.argv[1]
    rng = np.random.default_rng(11)
    wt = os.path.join(work, "word_language_model", "data", "wikitext-2")
    os.makedirs(wt, exist_ok=True)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocab = sorted({"".join(rng.choice(letters, size=int(rng.integers(2, 11))))
                    for _ in range(40000)})[:33278]
    vocab = [vocab[i] for i in rng.permutation(len(vocab))]
    words(rng, vocab, 600000, os.path.join(wt, "train.txt"))
    words(rng, vocab, 60000, os.path.join(wt, "valid.txt"))
    words(rng, vocab, 60000, os.path.join(wt, "test.txt"))

    sc = os.path.join(work, "nanoGPT", "data", "shakespeare_char")
    os.makedirs(sc, exist_ok=True)
    chars = sorted(set("\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
    weights = np.array([20.0 if c == " " else 8.0 if c.islower() else 1.0 for c in chars])
    weights /= weights.sum()
    for name, n in (("train.bin", 1003854), ("val.bin", 111540)):
        rng.choice(len(chars), size=n, p=weights).astype(np.uint16).tofile(os.path.join(sc, name))
    with open(os.path.join(sc, "meta.pkl"), "wb") as f:
        pickle.dump({"vocab_size": len(chars), "itos": dict(enumerate(chars)),
                     "stoi": {c: i for i, c in enumerate(chars)}}, f)

    cora(os.path.join(work, "gat", "cora"))
    cora_tgz(os.path.join(work, "gat", "cora"),
             os.path.join(work, "gcn", "offline-files", "cora.tgz"))


def cora_tgz(cora_dir, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in ("cora.content", "cora.cites"):
            with open(os.path.join(cora_dir, name), "rb") as f:
                data = f.read()
            info = tarfile.TarInfo("cora/" + name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    with open(path, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as gz:
        gz.write(tar_bytes.getvalue())


def cora(path, papers=2708, words=1433, citations=5429):
    rng = np.random.default_rng(13)
    os.makedirs(path, exist_ok=True)
    sizes = {"Case_Based": 298, "Genetic_Algorithms": 418, "Neural_Networks": 818,
             "Probabilistic_Methods": 426, "Reinforcement_Learning": 217,
             "Rule_Learning": 180, "Theory": 351}
    labels = np.array([c for c, n in sizes.items() for _ in range(n)])[rng.permutation(papers)]
    ids = rng.choice(np.arange(35, 1155074), size=papers, replace=False)
    features = rng.random((papers, words)) < 18.17 / words
    features[np.arange(papers), rng.integers(0, words, size=papers)] = True  # no empty paper
    with open(os.path.join(path, "cora.content"), "w") as f:
        for i in range(papers):
            f.write(f"{ids[i]}\t" + "\t".join("1" if x else "0" for x in features[i])
                    + f"\t{labels[i]}\n")
    by_class = {c: np.flatnonzero(labels == c) for c in sizes}
    edges = set()
    while len(edges) < citations:
        a = int(rng.integers(0, papers))
        pool = by_class[labels[a]] if rng.random() < 0.8 else np.arange(papers)
        b = int(pool[rng.integers(0, len(pool))])
        if a != b:
            edges.add((a, b))
    with open(os.path.join(path, "cora.cites"), "w") as f:
        for a, b in sorted(edges, key=lambda e: (ids[e[0]], ids[e[1]])):
            f.write(f"{ids[a]}\t{ids[b]}\n")


if __name__ == "__main__":
    main()
