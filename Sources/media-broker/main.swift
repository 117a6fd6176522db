print("media-broker: not built yet")
