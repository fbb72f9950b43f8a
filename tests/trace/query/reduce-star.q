SELECT REDUCE FOR PROCESS(worker[*], master)
