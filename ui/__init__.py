"""The screen: the only package (with cli.py) that imports rich or prompt_toolkit."""
