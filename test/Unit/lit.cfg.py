# -*- Python -*-
# Runs the GoogleTest binary of unittests/ as lit tests, one per TEST().
import lit.formats
config.name = "cuda-advisor-unit"
config.suffixes = []
config.test_source_root = config.unittests_dir
config.test_exec_root = config.unittests_dir
config.test_format = lit.formats.GoogleTest(".", "unittests")
