#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/multipart/multipart_form_data.hurl
