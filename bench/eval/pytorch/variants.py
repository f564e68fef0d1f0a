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
    # The fourth draw (README.md), written from reading the code before any
    # recording of these programs existed.
    "gat": ("main.py", {
        # Each layer masks its (heads, 2708, 2708) scores through a full tensor
        # of -9e16 (ones_like, a multiply, then where): three passes over 235 MB
        # in the first layer where one masked_fill writes the result once.
        "masked_fill": ([], [("""        connectivity_mask = -9e16 * torch.ones_like(e)
        e = torch.where(adj_mat > 0, e, connectivity_mask) # masked attention scores""",
                              """        connectivity_mask = None
        e = e.masked_fill(adj_mat <= 0, -9e16) # masked attention scores""")]),
        # test() ends with loss.item() and acc.item(), and runs twice an epoch:
        # four waits an epoch, whose results are printed every 20th epoch only
        # (an f-string formats the 0-dim tensors, syncing then).
        "no_item": ([], [("    return loss.item(), acc.item()", "    return loss, acc")]),
        # A look-alike: FP32 matmuls with TF32 off, but the large ones multiply
        # the (8, 2708, 2708) attention by 8 columns (memory-bound), and the
        # feature transform is 2708 x 1433 x 64.
        "tf32": (["--tf32"], []),
    }),
    "siamese_network": ("main.py", {
        # One DataLoader worker builds every pair in Python (random picks, two
        # clones and float conversions, a target tensor) for a ResNet-18 step.
        "workers4": ([], [("accel_kwargs = {'num_workers': 1,", "accel_kwargs = {'num_workers': 4,")]),
        # The two towers run one after the other on 64 images each: twice the
        # launches of one pass over the 128 images of both (small 28x28 inputs,
        # so the launches, not the GPU, may set the pace). BatchNorm then takes
        # its statistics over both halves together.
        "one_pass": ([], [("""        output1 = self.forward_once(input1)
        output2 = self.forward_once(input2)""",
                           """        both = self.forward_once(torch.cat((input1, input2)))
        output1, output2 = both.chunk(2)""")]),
        # A look-alike: the convolutions already use TF32 (cuDNN's default);
        # matmul TF32 reaches only the 1024 x 256 and 256 x 1 Linear layers.
        "tf32": (["--tf32"], []),
        # A look-alike: two `.item()` per test batch, but 5 test batches of 1000
        # pairs an epoch.
        "test_no_item": ([], [
            ("test_loss += criterion(outputs, targets).sum().item()",
             "test_loss += criterion(outputs, targets).sum()"),
            ("correct += pred.eq(targets.view_as(pred)).sum().item()",
             "correct += pred.eq(targets.view_as(pred)).sum()"),
        ]),
    }),
    "single_gpu": ("single_gpu.py", {
        # The whole dataset is 2048 x 21 floats (172 KB): kept on the GPU, each
        # batch is an index of it there, instead of the DataLoader's 32 Python
        # fetches, collate, pinning and two blocking uploads per step of a
        # Linear(20, 1).
        "gpu_batches": ([], [
            ("""        self.train_data = train_data
""", """        self.train_data = train_data
        data = train_data.dataset.data  # gpu_batches: the samples stay on the GPU
        self.gpu_x = torch.stack([x for x, _ in data]).to(gpu_id)
        self.gpu_y = torch.stack([y for _, y in data]).to(gpu_id)
"""),
            ("""        for source, targets in self.train_data:
            source = source.to(self.gpu_id)
            targets = targets.to(self.gpu_id)""",
             """        for idx in torch.randperm(len(self.gpu_x), device=self.gpu_id).split(b_sz):
            source = self.gpu_x[idx]
            targets = self.gpu_y[idx]"""),
        ]),
        # pin_memory=True with no worker: the main thread copies each batch of
        # 2.5 KB into page-locked memory before a blocking upload, which a copy
        # that small does not need.
        "no_pin": ([], [("        pin_memory=True,", "        pin_memory=False,")]),
        # Both uploads are blocking (`.to(self.gpu_id)`): two waits per step
        # for the GPU to finish the previous step.
        "non_blocking": ([], [
            ("source = source.to(self.gpu_id)", "source = source.to(self.gpu_id, non_blocking=True)"),
            ("targets = targets.to(self.gpu_id)", "targets = targets.to(self.gpu_id, non_blocking=True)"),
        ]),
        # A look-alike: a torch.save every save_every (10) epochs copies the
        # model to the host, but the model is 21 numbers.
        "no_checkpoint": ([], [("            if epoch % self.save_every == 0:",
                                "            if False:")]),
    }),
    # The fifth draw (README.md), written from reading the code before any
    # recording of these programs existed.
    "dcgan": ("main.py", {
        # Two DataLoader workers make every FakeData image (a seeded randn,
        # ToPILImage, ToTensor: 64 a batch) for a step of small convolutions,
        # and are forked again every epoch.
        "workers8": ([], [("help='number of data loading workers', default=2)",
                           "help='number of data loading workers', default=8)")]),
        # An epoch is 16 steps: the two workers are started (forked) and shut
        # down 20 times, and the first batch of each epoch is waited for.
        "persistent": ([], [("shuffle=True, num_workers=int(opt.workers))",
                             "shuffle=True, num_workers=int(opt.workers),\n"
                             "                                         persistent_workers=True)")]),
        # Five `.item()` a step (D(x), D(G(z)) twice, both losses for the print):
        # the host waits for the GPU three times within each step before it
        # queues the rest. The values stay tensors and are read (and printed)
        # on the steps that also save the images, one in 100.
        "no_item": ([], [
            ("D_x = output.mean().item()", "D_x = output.mean()"),
            ("D_G_z1 = output.mean().item()", "D_G_z1 = output.mean()"),
            ("D_G_z2 = output.mean().item()", "D_G_z2 = output.mean()"),
            ("""        print('[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f'
              % (epoch, opt.niter, i, len(dataloader),
                 errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))""",
             """        if i % 100 == 0:
            print('[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f'
                  % (epoch, opt.niter, i, len(dataloader),
                     errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))"""),
        ]),
        # Every epoch (16 steps) saves both models (25 MB, copied from the GPU
        # and written) under a new name: save the last epoch's only.
        "save_last": ([], [("""    torch.save(netG.state_dict(), '%s/netG_epoch_%d.pth' % (opt.outf, epoch))
    torch.save(netD.state_dict(), '%s/netD_epoch_%d.pth' % (opt.outf, epoch))""",
                            """    if epoch == opt.niter - 1:
        torch.save(netG.state_dict(), '%s/netG_epoch_%d.pth' % (opt.outf, epoch))
        torch.save(netD.state_dict(), '%s/netD_epoch_%d.pth' % (opt.outf, epoch))""")]),
        # A look-alike: FP32 training, but every layer is a convolution, which
        # cuDNN already runs in TF32 by default; there is no matmul for the
        # matmul TF32 switch to reach.
        "tf32": (["--tf32"], []),
    }),
    "gcn": ("main.py", {
        # test() ends in loss.item() and acc.item() and runs twice an epoch
        # (after each training step): four waits an epoch for numbers printed
        # every 20th epoch (the f-string formats the 0-dim tensors, syncing then).
        "no_item": ([], [("    return loss.item(), acc.item()", "    return loss, acc")]),
        # Features (2708 x 1433, ~18 nonzeros a row) and the normalized
        # adjacency (2708 x 2708, ~13,000 nonzeros) as sparse COO tensors: each
        # product is cuSPARSE work with its own set-up (row offsets, a buffer)
        # and the backward pass multiplies by transposes, which COO must sort
        # (coalesce) again every step. At this size the dense tensors are 15
        # and 29 MB, and a dense GEMM of them a few microseconds.
        "dense": ([], [
            ("return features.to_sparse().to(device), labels.to(device), adj_mat.to_sparse().to(device)",
             "return features.to_dense().to(device), labels.to(device), adj_mat.to_dense().to(device)"),
            ("output = torch.spmm(adj_mat, support)", "output = torch.mm(adj_mat, support)"),
        ]),
        # The two evaluations of an epoch (train and validation nodes) each run
        # the same forward pass in eval mode over the whole graph: one pass,
        # indexed twice, gives the same four numbers.
        "one_eval": ([], [
            ("""    loss_train, acc_train = test(model, criterion, input, target, mask_train)
    loss_val, acc_val = test(model, criterion, input, target, mask_val)""",
             """    (loss_train, acc_train), (loss_val, acc_val) = test_both(
        model, criterion, input, target, mask_train, mask_val)"""),
            ("""

if __name__ == '__main__':""", """

def test_both(model, criterion, input, target, *masks):
    # one_eval: one forward pass for both masks
    model.eval()
    results = []
    with torch.no_grad():
        output_all = model(*input)
        for mask in masks:
            output, target_m = output_all[mask], target[mask]
            loss = criterion(output, target_m)
            acc = (output.argmax(dim=1) == target_m).float().sum() / len(target_m)
            results.append((loss.item(), acc.item()))
    return results


if __name__ == '__main__':"""),
        ]),
        # A look-alike: FP32 matmuls with TF32 off, but the dense ones are
        # 2708 x 16 by 16 x 7 (and 16 x 2708 by 2708 x 7 in the backward pass);
        # the large products are sparse (cuSPARSE, no TF32 switch).
        "tf32": (["--tf32"], []),
    }),
    "mnist_forward_forward": ("main.py", {
        # get_y_neg draws a wrong label for each of the 50,000 samples in a
        # Python loop over a GPU tensor: a `.item()` (a wait and a 4-byte
        # download) and a one-element write (a kernel launch) per sample. One
        # draw for all, on the GPU: label + U{1..9} mod 10, the same
        # distribution (uniform over the 9 other labels).
        "neg_labels": ([], [("""    y_neg = y.clone()
    for idx, y_samp in enumerate(y):
        allowed_indices = list(range(10))
        allowed_indices.remove(y_samp.item())
        y_neg[idx] = torch.tensor(allowed_indices)[
            torch.randint(len(allowed_indices), size=(1,))
        ].item()
    return y_neg.to(device)""", """    # neg_labels: every sample's wrong label at once, on y's device
    y_neg = (y + torch.randint(1, 10, y.shape, device=y.device)) % 10
    return y_neg.to(device)""")]),
        # 2 x 1000 full-batch epochs of FP32 GEMMs (50,000 x 784 by 784 x 500,
        # then 500 x 500, forward and weight gradient, positive and negative
        # data) with TF32 off: compute-bound, where TF32's tensor cores run
        # several times faster.
        "tf32": (["--tf32"], []),
        # The one training batch (50,000 images) and the test batch (10,000)
        # go through the DataLoader: one worker converts, normalizes and
        # flattens each image in Python, collates 157 MB and the main process
        # pins it. The same tensors from the dataset's uint8 array in a few
        # vectorized operations (a random 50,000 of the 60,000, as shuffle).
        "tensor_data": ([], [
            ("    x, y = next(iter(train_loader))",
             """    ds = train_loader.dataset  # tensor_data: ToTensor, Normalize and flatten, vectorized
    pick = torch.randperm(len(ds))[: args.train_size]
    x, y = ((ds.data[pick].float() / 255 - 0.1307) / 0.3081).flatten(1), ds.targets[pick]"""),
            ("    x_te, y_te = next(iter(test_loader))",
             """    ds = test_loader.dataset
    pick = torch.randperm(len(ds))[: args.test_size]
    x_te, y_te = ((ds.data[pick].float() / 255 - 0.1307) / 0.3081).flatten(1), ds.targets[pick]"""),
        ]),
        # A look-alike: more DataLoader workers, but the training set is one
        # batch of 50,000 (and the test set one of 10,000), and a batch is
        # made by one worker: a second worker makes only the next, unused batch.
        "workers4": ([], [('accel_kwargs = {"num_workers": 1,', 'accel_kwargs = {"num_workers": 4,')]),
        # Small (likely under the noise): Layer.forward normalizes its input
        # (a norm and a division over 50,000 x 784 or x 500) on every call,
        # though a layer trains 1000 epochs on the same two inputs: normalized
        # once before the loop, about 0.4 ms an epoch of memory traffic saved
        # against several ms of GEMMs.
        "hoist_norm": ([], [("""        for i in range(self.num_epochs):
            g_pos = self.forward(x_pos).pow(2).mean(1)
            g_neg = self.forward(x_neg).pow(2).mean(1)""",
                             """        d_pos = x_pos / (x_pos.norm(2, 1, keepdim=True) + 1e-4)  # hoist_norm
        d_neg = x_neg / (x_neg.norm(2, 1, keepdim=True) + 1e-4)
        for i in range(self.num_epochs):
            g_pos = self.relu(torch.mm(d_pos, self.weight.T) + self.bias.unsqueeze(0)).pow(2).mean(1)
            g_neg = self.relu(torch.mm(d_neg, self.weight.T) + self.bias.unsqueeze(0)).pow(2).mean(1)""")]),
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
