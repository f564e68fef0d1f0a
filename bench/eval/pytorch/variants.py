"""The fixes an expert would try on each program, written down before any tool
output was read (bench/eval/pytorch/README.md): each is one change to the
published file, timed against the unchanged program by run.sh to find which
of them are real thieves and what each costs.

    python3 variants.py PROGRAMS_DIR PROGRAM

writes PROGRAMS_DIR/PROGRAM/<file>.fix-<name>.py for each variant and prints one
line per variant: `<name> <script> [wrapper flags]`. An edit whose text is not
found exactly once is an error (the published file changed).
"""
import os
import sys

# program -> (script, {variant: (wrapper flags, [(old, new), ...])})
VARIANTS = {
    "mnist_rnn": ("main.py", {
        "workers4": ([], [("{'num_workers': 1, 'pin_memory': True}",
                           "{'num_workers': 4, 'pin_memory': True}")]),
        "tf32": (["--tf32"], []),
        "test_no_item": ([], [
            ("test_loss += F.nll_loss(output, target, reduction='sum').item()",
             "test_loss += F.nll_loss(output, target, reduction='sum')"),
            ("correct += pred.eq(target.view_as(pred)).sum().item()",
             "correct += pred.eq(target.view_as(pred)).sum()"),
        ]),
    }),
    "vae": ("main.py", {
        "workers4": ([], [("{'num_workers': 1, 'pin_memory': True}",
                           "{'num_workers': 4, 'pin_memory': True}")]),
        "tf32": (["--tf32"], []),
        "no_item": ([], [
            ("train_loss += loss.item()", "train_loss += loss.detach()"),
            ("test_loss += loss_function(recon_batch, data, mu, logvar).item()",
             "test_loss += loss_function(recon_batch, data, mu, logvar).detach()"),
        ]),
    }),
    "word_language_model": ("main.py", {
        "tf32": (["--tf32"], []),
        "no_item": ([], [("total_loss += loss.item()", "total_loss += loss.detach()")]),
        "foreach": ([], [("""            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)""",
                          """            params = [p.data for p in model.parameters()]
            torch._foreach_add_(params, [p.grad for p in model.parameters()], alpha=-lr)""")]),
        "eval_no_item": ([], [("total_loss += len(data) * criterion(output, targets).item()",
                               "total_loss += len(data) * criterion(output, targets).detach()")]),
    }),
    "nanoGPT": ("train.py", {
        # Added after the tool's first report (runtime-data-loading on
        # get_batch, results/after/nanoGPT.native.txt), to measure that finding:
        # the dataset (a few MB) stays on the GPU and each batch is gathered
        # there, instead of a memmap, 128 small CPU copies, pin_memory and an
        # upload per batch.
        "gpu_batches": ([], [("""def get_batch(split):
    # We recreate np.memmap every batch""", """gpu_data = {s: torch.from_numpy(np.fromfile(os.path.join(data_dir, f'{s}.bin'), dtype=np.uint16)
                             .astype(np.int64)).to(device) for s in ('train', 'val')}
def get_batch(split):
    data = gpu_data[split]
    ix = torch.randint(len(data) - block_size, (batch_size,), device=device)
    at = ix[:, None] + torch.arange(block_size, device=device)
    return data[at], data[at + 1]
def get_batch_unused(split):
    # We recreate np.memmap every batch""")]),
        "eval_no_item": ([], [("losses = torch.zeros(eval_iters)",
                               "losses = torch.zeros(eval_iters, device=device)"),
                              ("losses[k] = loss.item()", "losses[k] = loss.detach()")]),
    }),
    "time_sequence_prediction": ("train.py", {}),
    # The third draw (README.md), written from reading the code before any
    # recording of these programs existed.
    "regression": ("main.py", {
        # A look-alike: a `.item()` every step, but every tensor is on the CPU
        # (the program never touches the GPU): there is no sync to remove.
        "no_item": ([], [("loss = output.item()", "loss = output.detach()")]),
    }),
    "imagenet": ("main.py", {
        # 4 workers (-j's default) make 256 random 3x224x224 images a batch
        # (torch.randn, ToPILImage, ToTensor); the machine has 16 cores.
        "workers12": ([], [("parser.add_argument('-j', '--workers', default=4, type=int",
                            "parser.add_argument('-j', '--workers', default=12, type=int")]),
        # FP32 ResNet-18 training: bf16 autocast and NHWC tensors for cuDNN's
        # tensor-core convolutions.
        "amp_cl": ([], [
            ("model = torch.nn.DataParallel(model).cuda()",
             "model = torch.nn.DataParallel(model.to(memory_format=torch.channels_last)).cuda()"),
            ("images = images.to(device, non_blocking=True)",
             "images = images.to(device, non_blocking=True, memory_format=torch.channels_last)"),
            ("""
        output = model(images)
        loss = criterion(output, target)
""", """
        with torch.autocast(device.type, dtype=torch.bfloat16):
            output = model(images)
            loss = criterion(output, target)
"""),
        ]),
        # cudnn.benchmark is left off (it is set only with --seed, to False):
        # fixed input shapes, so cuDNN's autotuner could pick faster kernels.
        "cudnn_benchmark": ([], [("""    global best_acc1
    args.gpu = gpu
""", """    global best_acc1
    args.gpu = gpu
    cudnn.benchmark = True
""")]),
        # `losses.update(loss.item(), ...)` waits for the forward pass every
        # training step, before the backward pass is queued.
        "no_item": ([], [("losses.update(loss.item(), images.size(0))\n        top1",
                          "losses.update(loss.detach(), images.size(0))\n        top1")]),
        # A look-alike: the convolutions already use TF32 (cuDNN's default);
        # matmul TF32 reaches only the 512 x 1000 classifier.
        "tf32": (["--tf32"], []),
        # A look-alike: DataParallel over one GPU calls the module directly
        # (after a scatter of the inputs to the same device).
        "no_dataparallel": ([], [("model = torch.nn.DataParallel(model).cuda()",
                                  "model = model.cuda()")]),
    }),
    "mnist": ("main.py", {
        # One DataLoader worker converts and normalizes every 28x28 image for a
        # small CNN (as mnist_rnn and vae, whose loaders were the thieves).
        "workers4": ([], [("{'num_workers': 1,", "{'num_workers': 4,")]),
        # FP32 Linear layers (fc1 is 9216 x 128); the convolutions already use
        # TF32 (cuDNN's default).
        "tf32": (["--tf32"], []),
        # A look-alike: two `.item()` per test batch, but 5 test batches of 1000.
        "test_no_item": ([], [
            ("test_loss += F.nll_loss(output, target, reduction='sum').item()",
             "test_loss += F.nll_loss(output, target, reduction='sum')"),
            ("correct += pred.eq(target.view_as(pred)).sum().item()",
             "correct += pred.eq(target.view_as(pred)).sum()"),
        ]),
    }),
}


def main():
    root, program = sys.argv[1], sys.argv[2]
    script, variants = VARIANTS[program]
    with open(os.path.join(root, program, script)) as f:
        text = f.read()
    for name, (flags, edits) in variants.items():
        fixed = text
        for old, new in edits:
            if fixed.count(old) != 1:
                sys.exit(f"variants.py: {program}/{script}: the text to replace for '{name}' "
                         f"occurs {fixed.count(old)} times, expected once: {old!r}")
            fixed = fixed.replace(old, new)
        out = f"{script[:-3]}.fix-{name}.py"
        with open(os.path.join(root, program, out), "w") as f:
            f.write(fixed)
        print(name, out, *flags)


if __name__ == "__main__":
    main()
