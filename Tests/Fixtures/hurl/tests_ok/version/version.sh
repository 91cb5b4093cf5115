#!/bin/bash
set -Eeuo pipefail

hurl --version
