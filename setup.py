# The package pre-commit installs for the cudaforklint-wheel hook (.pre-commit-hooks.yaml). A
# `language: python` hook makes pre-commit run `pip install .` in its clone of this repository and
# then install the hook's additional_dependencies, which name the prebuilt cudaforklint wheel
# (scripts/release). This package is empty: it does not build cudaforklint, which needs Go and a C
# compiler (see README.md, "Install").
from setuptools import setup

setup(
    name="cudaforklint-pre-commit",
    version="0",
    description="The pre-commit hook package of cudaforklint; the tool is the cudaforklint wheel",
    packages=[],
    py_modules=[],
)
