print("broker-ctl: not built yet")
