"""The Flask companion app and the ``tabletally`` command line."""
