# -*- Python -*-
import os
import shutil
import lit.formats

config.name = "cuda-advisor"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cpp", ".test", ".c"]
config.excludes = ["Inputs", "Unit", "gpu", "CMakeLists.txt", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cuda_advisor_obj_root, "test")

config.substitutions.append(("%collector", os.path.join(config.cuda_advisor_obj_root, "lib", "libcuda-advisor-collector.so")))
config.substitutions.append(("%cxx", shutil.which("g++") or "c++"))
config.substitutions.append(("%cuda-advisor", os.path.join(config.cuda_advisor_tools_dir, "cuda-advisor")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%mock_cuda", os.path.join(config.test_source_root, "Inputs", "mock-cuda")))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%src_root", config.cuda_advisor_src_root))
config.substitutions.append(("%build_root", config.cuda_advisor_obj_root))
config.substitutions.append(("%share", os.path.join(config.cuda_advisor_obj_root, "share", "cuda-advisor")))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%expect-exit", config.python + " " + os.path.join(config.test_source_root, "Inputs", "expect_exit.py")))
config.substitutions.append(("%unittests", os.path.join(config.cuda_advisor_obj_root, "unittests", "cuda-advisor-unittests")))

# A real CUDA toolkit (nvcc, headers) on this machine.
if config.cuda_path and os.path.isdir(os.path.join(config.cuda_path, "include")):
    config.available_features.add("cuda")
if config.have_collector:
    config.available_features.add("collector")
try:
    import jsonschema  # noqa: F401
    config.available_features.add("jsonschema")
except ImportError:
    pass
# clang-apply-replacements from clang-tools-19 (reads --export-fixes files).
_apply = shutil.which("clang-apply-replacements-19") or shutil.which("clang-apply-replacements", path="/usr/lib/llvm-19/bin")
if _apply:
    config.available_features.add("clang-apply-replacements")
    config.substitutions.append(("%clang-apply-replacements", _apply))

# /dev/full (writes fail with ENOSPC) for the write-error tests.
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")
if os.getuid() == 0:
    config.available_features.add("root")
if shutil.which("git"):
    config.available_features.add("git")
# A real editor for the language server's end-to-end test.
_nvim = shutil.which("nvim")
if _nvim:
    config.available_features.add("neovim")
    config.substitutions.append(("%nvim", _nvim))

# Headless Chromium (Debian's chromium package) for the HTML timeline's
# rendering test: %chromium takes the page's URL and --dump-dom or
# --screenshot=FILE.
_chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if _chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", "timeout 120 " + _chromium +
        " --headless --disable-gpu --no-sandbox --no-first-run --hide-scrollbars"
        " --force-device-scale-factor=1 --window-size=1200,1400"))

# The tool built by scripts/sanitize.sh (ASan and UBSan). No test is
# UNSUPPORTED there today; a test excluded under the sanitizers must say why
# and be listed in docs/robustness.md.
if getattr(config, "sanitize", ""):
    config.available_features.add("sanitizer")

config.environment["LC_ALL"] = "C"
# Tests must not pick up the developer's CUDA through the environment.
# Nor a result cache: a test that uses one names its own directory.
for var in ("CUDA_PATH", "CUDA_HOME", "CUDA_INJECTION64_PATH", "CUDA_ADVISOR_CACHE_DIR"):
    config.environment.pop(var, None)
