#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/function/function.hurl
