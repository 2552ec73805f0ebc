#!/usr/bin/env python3
"""Runs a command so that a directory of mode 0555 is unwritable to it.

Sessions and CI often run as root, and root ignores file modes: then the
command runs as user nobody (setpriv). As any other user it runs directly.
Exit code: the command's.
"""
import os
import sys

cmd = sys.argv[1:]
if os.geteuid() == 0:
    cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
os.execvp(cmd[0], cmd)
