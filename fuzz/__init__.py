"""Coverage-guided fuzz targets for toolturns (see README.md); not part of the package."""
