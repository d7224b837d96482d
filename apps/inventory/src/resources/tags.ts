import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { type TSchema, Type } from 'typebox';
import type { AnyDatabase } from '../db/schema.js';
import { statementTemplate } from '../db/statement-template.js';
import { badRequest } from '../errors.js';
import { type ResourceDefinition, tagColumns } from './definition.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageSize, responses, sortKeySchema } from './schemas.js';

const MAX_PAGE = 1_000_000;
const SORT = /^(name|count):(asc|desc)$/;

export interface TagRoutesOptions {
  db: AnyDatabase;
  resources: readonly ResourceDefinition[];
}

/**
 * `GET /tags`: every tag in use, with the number of records carrying it in all and per resource,
 * paged and sorted like any list (by name or count, then by name). Read from the records
 * themselves in one statement, so the counts are exact; it reads the tag arrays of every tagged
 * record (not the records), which the README's performance section measures.
 */
export const tagRoutes: FastifyPluginAsyncTypebox<TagRoutesOptions> = async (
  app,
  { db, resources },
) => {
  const tagged = resources.flatMap((definition) =>
    tagColumns(definition).map((column) => ({ definition, column })),
  );
  const perResource: Record<string, TSchema> = {};
  for (const { definition } of tagged) perResource[definition.name] = Type.Integer();
  const Tag = Type.Object({ name: Type.String(), count: Type.Integer(), ...perResource });
  const Page = Type.Object({
    meta: Type.Object({
      current_page: Type.Integer(),
      limit: Type.Integer(),
      total_pages: Type.Integer(),
      total_count: Type.Integer(),
    }),
    data: Type.Array(Tag),
  });
  const Query = Type.Object(
    {
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
      limit: Type.Optional(PageSize),
      sortby: Type.Optional(
        Type.Array(sortKeySchema(['name', 'count']), {
          maxItems: 2,
          description: '`name:asc|desc` or `count:asc|desc` (default `name:asc`).',
        }),
      ),
    },
    { additionalProperties: false },
  );

  app.get(
    '/',
    {
      config: { access: 'authenticated' },
      schema: { querystring: Query, response: responses({ 200: Page }) },
    },
    async (request) => {
      const { page = 1, limit: requested = DEFAULT_PAGE_SIZE, sortby = [] } = request.query;
      const limit = Math.min(requested, MAX_PAGE_SIZE);
      const sort = sortby.map((value) => {
        const match = SORT.exec(value);
        if (!match) throw badRequest(`Invalid sortby "${value}": expected name|count:asc|desc`);
        return { column: match[1] as 'name' | 'count', direction: match[2] as 'asc' | 'desc' };
      });
      const shape = JSON.stringify(['tags', sort]);
      const template = statementTemplate(db, shape, (param) => {
        const sources = tagged.map(
          ({ definition, column }) =>
            sql`SELECT unnest(${sql.ref(column)}) AS name, ${sql.lit(definition.name)} AS resource
              FROM ${sql.table(definition.table)} WHERE ${sql.ref(column)} <> '{}'`,
        );
        const counts = tagged.map(
          ({ definition }) =>
            sql`count(*) FILTER (WHERE resource = ${sql.lit(definition.name)}) AS ${sql.ref(definition.name)}`,
        );
        const order = sql.join([
          ...sort.map((key) => sql`${sql.ref(`c.${key.column}`)} ${sql.raw(key.direction)}`),
          sql`c.name asc`,
        ]);
        return sql`
          WITH c AS (
            SELECT name, count(*) AS count, ${sql.join(counts)}
            FROM (${sql.join(sources, sql` UNION ALL `)}) AS tagged GROUP BY name
          )
          SELECT (SELECT count(*) FROM c) AS __total_count, p.*
          FROM (SELECT 1) AS one LEFT JOIN LATERAL (
            SELECT c.* FROM c ORDER BY ${order} LIMIT ${param('limit')} OFFSET ${param('offset')}
          ) AS p ON true`;
      });
      const result = await db.executeQuery<Record<string, unknown>>(
        template.bind({ limit, offset: (page - 1) * limit }),
      );
      const totalCount = Number(result.rows[0]?.__total_count ?? 0);
      const data = result.rows
        .filter((row) => row.name !== null && row.name !== undefined)
        .map((row) => {
          const tag: { name: string; count: number; [resource: string]: unknown } = {
            name: String(row.name),
            count: Number(row.count),
          };
          for (const { definition } of tagged) tag[definition.name] = Number(row[definition.name]);
          return tag;
        });
      return {
        meta: {
          current_page: page,
          limit,
          total_pages: Math.ceil(totalCount / limit),
          total_count: totalCount,
        },
        data,
      };
    },
  );
};
