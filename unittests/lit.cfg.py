# -*- Python -*-
# Runs every GoogleTest binary in build/unittests/bin, one lit test per case.
import os

import lit.formats

config.name = "qshape-unit"
config.suffixes = []
config.test_source_root = os.path.join(config.qshape_obj_root, "unittests", "bin")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
