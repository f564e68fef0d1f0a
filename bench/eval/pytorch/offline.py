"""Runs a public PyTorch program unchanged on a machine with no network.

    python3 offline.py [--torch-profiler TRACE.json.gz] [--tf32] SCRIPT [ARGS...]

The program's own file is run as it was published (runpy, as `python3 SCRIPT
ARGS` would run it: same __main__, same sys.argv, the script's directory first
on sys.path), so every line number a profiler records is the published one.
The only things replaced are what needs the network and the length of a dummy
dataset:

  torchvision.datasets.MNIST   a synthetic MNIST of the same shape and type
                               (28x28 8-bit PIL images, labels 0-9), deterministic;
                               OFFLINE_MNIST_TRAIN / OFFLINE_MNIST_TEST samples
                               (30000 / 5000 by default: the real set's 60000 /
                               10000 halved, to keep the recordings small);
                               .data and .targets are tensors, as torchvision's
  torchvision.datasets.FakeData the same class (its images, labels and cost per
                               image unchanged), its size divided by
                               OFFLINE_FAKEDATA_DIVISOR (50 by default:
                               imagenet's --dummy train set of 1,281,167 images
                               becomes 25,623, about 100 batches of 256, and its
                               validation set of 50,000 becomes 1,000)
  requests.get(URL)            where the program's folder (the working directory)
                               has offline-files/: answered from
                               offline-files/<the URL's last path component>, a
                               file make_data.py wrote (gcn's cora.tgz); any other
                               URL raises ConnectionError, as with no network

Options of this wrapper (before SCRIPT):
  --torch-profiler T  run the program under torch.profiler (CPU and CUDA,
                      with_stack=True, record_shapes=True) and export the Chrome
                      trace to T (gzipped when T ends in .gz)
  --tf32              torch.backends.cuda.matmul.allow_tf32 = True before the
                      program starts (the fix of runtime-tensor-cores-unused,
                      without editing the program)

Without --torch-profiler, the last line on stderr is "offline.py: program
ran N ms": the time of the program itself, from runpy's start to its end.
"""
import gzip
import os
import runpy
import shutil
import sys
import time


def fake_mnist():
    import numpy as np
    import torch
    import torch.utils.data
    from PIL import Image

    class FakeMNIST(torch.utils.data.Dataset):
        def __init__(self, root, train=True, transform=None, target_transform=None,
                     download=False):
            n = int(os.environ.get("OFFLINE_MNIST_TRAIN" if train else "OFFLINE_MNIST_TEST",
                                   "30000" if train else "5000"))
            rng = np.random.default_rng(1 if train else 2)
            self.images = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
            self.labels = rng.integers(0, 10, size=n).tolist()
            # As torchvision's MNIST: .data a uint8 tensor (n, 28, 28) (the
            # array's memory), .targets an int64 tensor; siamese_network reads
            # both. __getitem__ reads the array and list, as before.
            self.data = torch.from_numpy(self.images)
            self.targets = torch.tensor(self.labels)
            self.transform = transform
            self.target_transform = target_transform
            self.train = train

        def __len__(self):
            return len(self.images)

        def __getitem__(self, index):
            img = Image.fromarray(self.images[index], mode="L")
            target = self.labels[index]
            if self.transform is not None:
                img = self.transform(img)
            if self.target_transform is not None:
                target = self.target_transform(target)
            return img, target

    return FakeMNIST


def small_fake_data(divisor):
    import torchvision.datasets

    class FakeData(torchvision.datasets.FakeData):
        # Only the length changes: __getitem__ (a seeded torch.randn image,
        # ToPILImage, the program's transform) is torchvision's own.
        def __init__(self, size=1000, *args, **kwargs):
            super().__init__(max(1, size // divisor), *args, **kwargs)

    return FakeData


def offline_requests(folder):
    import urllib.parse

    import requests

    class Response:
        # What a program reads of a streamed requests response: .raw (a file
        # object, as urllib3's), .content, iter_content, as a context manager.
        def __init__(self, url, path):
            self.url, self.status_code, self.ok = url, 200, True
            self.raw = open(path, "rb")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

        def close(self):
            self.raw.close()

        def raise_for_status(self):
            pass

        @property
        def content(self):
            return self.raw.read()

        def iter_content(self, chunk_size=1, decode_unicode=False):
            while True:
                chunk = self.raw.read(chunk_size or 65536)
                if not chunk:
                    return
                yield chunk

    def get(url, *args, **kwargs):
        name = os.path.basename(urllib.parse.urlparse(url).path)
        path = os.path.join(folder, name)
        if not name or not os.path.isfile(path):
            raise requests.exceptions.ConnectionError(
                f"offline.py: no network, and no {path} for {url}")
        return Response(url, path)

    requests.get = get


def main():
    argv = sys.argv[1:]
    trace = None
    tf32 = False
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--torch-profiler":
            trace = argv.pop(0)
        elif opt == "--tf32":
            tf32 = True
        else:
            sys.exit(f"offline.py: unknown option {opt}")
    if not argv:
        sys.exit(__doc__)
    script = os.path.abspath(argv[0])

    try:
        import torchvision.datasets
        torchvision.datasets.MNIST = fake_mnist()
        torchvision.datasets.FakeData = small_fake_data(
            int(os.environ.get("OFFLINE_FAKEDATA_DIVISOR", "50")))
    except ImportError:
        pass
    if os.path.isdir("offline-files"):
        offline_requests(os.path.abspath("offline-files"))
    import torch
    if tf32:
        torch.backends.cuda.matmul.allow_tf32 = True

    sys.argv = [script] + argv[1:]
    sys.path.insert(0, os.path.dirname(script))
    if trace is None:
        # The program's own time, without the interpreter's start and
        # `import torch` (seconds of noise from one process to the next):
        # run.sh reads this line from the log.
        t0 = time.perf_counter()
        try:
            runpy.run_path(script, run_name="__main__")
        finally:
            print(f"offline.py: program ran {1000 * (time.perf_counter() - t0):.0f} ms",
                  file=sys.stderr, flush=True)
        return
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], with_stack=True,
                 record_shapes=True) as prof:
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit:
            pass
    plain = trace[:-3] if trace.endswith(".gz") else trace
    prof.export_chrome_trace(plain)
    if plain != trace:
        with open(plain, "rb") as src, gzip.open(trace, "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.remove(plain)


if __name__ == "__main__":
    main()
