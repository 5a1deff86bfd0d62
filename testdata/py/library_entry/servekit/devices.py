def device_for(rank):
    return rank % 8
