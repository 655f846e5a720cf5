/* The tablet's durable queue of round steps recorded offline: IndexedDB, so a
   reload or a crash of the browser loses nothing.

     OfflineQueue.put(item)     -> Promise of the item's key. An item is
                                  {key (the step's idempotency key), table_id, round_ref, type,
                                   payload, expected_seq, tapped_at, ...anything}; putting a key
                                  again replaces that item where it stands in the queue
     OfflineQueue.all(tableId)  -> Promise of the table's items in the order they were put
     OfflineQueue.remove(key)   -> Promise (true when there was such an item)
     OfflineQueue.count(tableId) -> Promise of the number of the table's items
     OfflineQueue.clear(tableId) -> Promise of the number removed

   Every write is a "strict" transaction: it is on disk when its Promise resolves. A table's id
   is compared as text (1 and "1" are the same table). */
(function () {
  'use strict';
  const NAME = 'dealer-assist-offline';
  const STORE = 'steps';
  let opened = null;

  function done(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  function open() {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = () => {
        // out-of-line, ever-growing keys: the queue's order is the order of the puts
        const store = request.result.createObjectStore(STORE, {autoIncrement: true});
        store.createIndex('key', 'key', {unique: true});
        store.createIndex('table', 'table');
      };
      request.onsuccess = () => {
        const db = request.result;
        db.onversionchange = () => { db.close(); opened = null; };
        resolve(db);
      };
      request.onerror = () => { opened = null; reject(request.error); };
      request.onblocked = () => { opened = null; reject(new Error('offline-queue-blocked')); };
    });
    return opened;
  }

  /* run `work(store)` in one transaction; resolves with its result once committed */
  async function transact(mode, work) {
    const db = await open();
    const options = mode === 'readwrite' ? {durability: 'strict'} : undefined;
    const tx = db.transaction(STORE, mode, options);
    const result = work(tx.objectStore(STORE));
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error('offline-queue-aborted'));
    });
    return result;
  }

  function table(id) {
    if (id === undefined || id === null || id === '') throw new TypeError('a table_id is needed');
    return String(id);
  }

  function put(item) {
    if (!item || typeof item.key !== 'string' || !item.key) {
      return Promise.reject(new TypeError('an item needs its idempotency key'));
    }
    let row;
    try {
      row = {key: item.key, table: table(item.table_id), item};
    } catch (err) {
      return Promise.reject(err);
    }
    return transact('readwrite', (store) => {
      const found = store.index('key').getKey(item.key);
      found.onsuccess = () => {
        if (found.result === undefined) store.add(row);
        else store.put(row, found.result);
      };
    }).then(() => item.key);
  }

  function all(tableId) {
    const holder = {};
    return transact('readonly', (store) => {
      const got = store.index('table').getAll(table(tableId));
      got.onsuccess = () => { holder.rows = got.result; };
    }).then(() => holder.rows.map((row) => row.item));
  }

  function remove(key) {
    const holder = {removed: false};
    return transact('readwrite', (store) => {
      const found = store.index('key').getKey(String(key));
      found.onsuccess = () => {
        if (found.result === undefined) return;
        store.delete(found.result);
        holder.removed = true;
      };
    }).then(() => holder.removed);
  }

  function count(tableId) {
    return transact('readonly', (store) => done(store.index('table').count(table(tableId))));
  }

  function clear(tableId) {
    const holder = {n: 0};
    return transact('readwrite', (store) => {
      const cursor = store.index('table').openKeyCursor(IDBKeyRange.only(table(tableId)));
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) return;
        store.delete(at.primaryKey);
        holder.n += 1;
        at.continue();
      };
    }).then(() => holder.n);
  }

  window.OfflineQueue = {put, all, remove, count, clear};
})();
