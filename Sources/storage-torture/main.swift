print("storage-torture")
