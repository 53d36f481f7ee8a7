"""Profiles (palette, white balance, table geometry) and the tools that make them."""
