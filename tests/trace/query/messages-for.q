select messages for process(worker[3])
