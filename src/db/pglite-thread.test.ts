// The embedded database's thread, through the same interface drizzle uses: results, typed errors with their
// fields, interactive transactions (commit, rollback, drizzle's savepoints), statements from outside a
// transaction waiting for it, and LISTEN/NOTIFY.
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgliteThread } from "./pglite-thread.ts";

let thread: PgliteThread;
beforeAll(async () => {
  thread = await PgliteThread.create(undefined);
  await thread.exec("create table t (id int primary key, note text, at timestamptz default now())");
});
afterAll(async () => {
  await thread?.close();
});

describe("the embedded database thread", () => {
  it("answers queries in both row modes and leaves drizzle's raw types as text", async () => {
    await thread.query("insert into t (id, note) values ($1, $2)", [1, "one"]);
    expect((await thread.query("select id, note from t where id = $1", [1])).rows).toEqual([{ id: 1, note: "one" }]);
    expect((await thread.query("select id, note from t where id = 1", [], { rowMode: "array" })).rows).toEqual([[1, "one"]]);
    const at = (await thread.query("select at from t where id = 1", [], { parsers: { 1184: (v: string) => v } })).rows[0] as { at: unknown };
    expect(typeof at.at).toBe("string");
  });

  it("an error keeps its code and fields", async () => {
    const error = (await thread.query("insert into t (id, note) values (1, 'again')").catch((e: unknown) => e)) as Error & { code?: string; constraint?: string };
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("23505");
    expect(error.constraint).toBe("t_pkey");
  });

  it("transactions commit, roll back on a throw, and nest as savepoints through drizzle", async () => {
    const db = drizzle({ client: thread as unknown as PGlite });
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id, note) values (2, 'two')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t (id, note) values (3, 'three')`);
          throw new Error("inner fails");
        })
        .catch(() => undefined);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t (id, note) values (4, 'four')`);
        throw new Error("outer fails");
      }),
    ).rejects.toThrow("outer fails");
    expect((await thread.query("select id from t order by id")).rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("a statement from outside waits for an open transaction, then sees its commit", async () => {
    let outside: Promise<unknown> | undefined;
    await thread.transaction(async (tx) => {
      await tx.query("insert into t (id, note) values (5, 'five')");
      outside = thread.query("select count(*)::int as n from t where id = 5");
      await tx.query("update t set note = 'FIVE' where id = 5");
    });
    expect(((await outside) as { rows: { n: number }[] }).rows).toEqual([{ n: 1 }]);
  });

  it("LISTEN delivers each notification once per handler, and unsubscribing stops it", async () => {
    const seen: string[] = [];
    const stopA = await thread.listen("chan", (p) => seen.push(`a:${p}`));
    const stopB = await thread.listen("chan", (p) => seen.push(`b:${p}`));
    await thread.query("select pg_notify('chan', 'x')");
    await expect.poll(() => seen.length).toBe(2);
    expect(seen.sort()).toEqual(["a:x", "b:x"]);
    await stopA();
    await stopB();
    await thread.query("select pg_notify('chan', 'y')");
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(2);
  });
});
