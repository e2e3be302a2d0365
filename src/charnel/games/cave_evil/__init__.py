"""Cave Evil (Emperors of Eternal Evil, 2011): card fields and checks."""
