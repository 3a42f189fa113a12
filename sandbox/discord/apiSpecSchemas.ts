import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import * as z from 'zod/mini';

/**
 * Discord's OpenAPI description as the discord-api-spec package publishes it. The package's zod module holds the
 * named schemas; which body and query each route takes is written only in its type declarations (the `Paths`
 * interface), so those are read with TypeScript's parser and their type expressions turned into zod over the named
 * schemas.
 */

export type Schema = z.ZodMiniType;

export interface Operation {
	/** The route as Discord's description writes it, e.g. `/channels/{channel_id}/messages`. */
	readonly route: string;
	readonly query: ReadonlyMap<string, Schema>;
	/** Undefined when the description gives this operation no body. */
	readonly body: Schema | undefined;
}

// The package's typings are TypeScript sources that this project's compiler would build as CommonJS and refuse, so
// its modules are loaded untyped, by specifiers the compiler does not follow.
const packageModules = { schemas: 'discord-api-spec/preview/zod', paths: 'discord-api-spec/preview' };
const named = (await import(packageModules.schemas)) as Record<string, Schema | undefined>;
/** Every route of the description, per lower-case method: the package's `pathsList`. */
export const pathsList = ((await import(packageModules.paths)) as { pathsList: Record<string, readonly string[] | undefined> }).pathsList;
// zod/mini loads no messages of its own; English ones make a refusal say what was wrong.
z.config(z.locales.en());

/** The exported schema for a type name of the description, e.g. `MessageCreateRequest`. */
export function namedSchema(name: string): Schema {
	const schema = named[`${name}Schema`];
	if (!schema) throw new Error(`discord-api-spec has no schema named ${name}Schema`);
	return schema;
}

let operations: Map<string, Operation> | undefined;

/** Every operation of the description, keyed `METHOD route` (`POST /channels/{channel_id}/messages`). */
export function specOperations(): ReadonlyMap<string, Operation> {
	operations ??= readOperations();
	return operations;
}

function declarationsFile(): string {
	const roots = createRequire(import.meta.url).resolve.paths('discord-api-spec') ?? [];
	for (const root of roots) {
		const file = join(root, 'discord-api-spec', 'build', 'preview', 'discord-api-spec.ts');
		if (existsSync(file)) return file;
	}
	throw new Error('discord-api-spec is not installed (npm install)');
}

function readOperations(): Map<string, Operation> {
	const file = declarationsFile();
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
	const paths = source.statements.find((node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'Paths');
	if (!paths) throw new Error('discord-api-spec: no Paths interface in its declarations');
	const found = new Map<string, Operation>();
	for (const route of paths.members) {
		const operationsOfRoute = memberType(route);
		if (!operationsOfRoute || !ts.isTypeLiteralNode(operationsOfRoute)) continue;
		for (const operation of operationsOfRoute.members) {
			const parts = memberType(operation);
			if (!parts || !ts.isTypeLiteralNode(parts)) continue;
			const parameters = memberType(memberNamed(parts, 'parameters'));
			const queryType = parameters && ts.isTypeLiteralNode(parameters) ? memberType(memberNamed(parameters, 'query')) : undefined;
			const query = new Map<string, Schema>();
			if (queryType && ts.isTypeLiteralNode(queryType)) {
				for (const parameter of queryType.members) {
					const type = memberType(parameter);
					if (type) query.set(memberName(parameter), toSchema(type));
				}
			}
			const bodyType = memberType(memberNamed(parts, 'requestBody'));
			const body = !bodyType || bodyType.kind === ts.SyntaxKind.UndefinedKeyword ? undefined : toSchema(bodyType);
			const routeText = memberName(route);
			found.set(`${memberName(operation).toUpperCase()} ${routeText}`, { route: routeText, query, body });
		}
	}
	return found;
}

function memberName(member: ts.TypeElement): string {
	const name = member.name;
	if (!name) return '';
	return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '';
}

function memberNamed(literal: ts.TypeLiteralNode, name: string): ts.TypeElement | undefined {
	return literal.members.find((member) => memberName(member) === name);
}

function memberType(member: ts.TypeElement | undefined): ts.TypeNode | undefined {
	return member && ts.isPropertySignature(member) ? member.type : undefined;
}

/** A type expression of the declarations as zod: names become the package's schemas, the rest is built here. */
function toSchema(node: ts.TypeNode): Schema {
	if (ts.isParenthesizedTypeNode(node)) return toSchema(node.type);
	if (ts.isTypeReferenceNode(node)) {
		const name = ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.right.text;
		if (name === 'Record' || name === 'Array') {
			const args = node.typeArguments ?? [];
			const value = args.at(-1);
			return name === 'Array' ? z.array(value ? toSchema(value) : z.unknown()) : z.record(z.string(), value ? toSchema(value) : z.unknown());
		}
		return z.lazy(() => namedSchema(name));
	}
	if (ts.isArrayTypeNode(node)) return z.array(toSchema(node.elementType));
	if (ts.isUnionTypeNode(node)) {
		const options = node.types.map(toSchema);
		return options.length === 1 ? (options[0] as Schema) : z.union(options as [Schema, Schema, ...Schema[]]);
	}
	if (ts.isIntersectionTypeNode(node)) {
		return node.types.map(toSchema).reduce((left, right) => z.intersection(left, right));
	}
	if (ts.isLiteralTypeNode(node)) {
		const literal = node.literal;
		if (literal.kind === ts.SyntaxKind.NullKeyword) return z.null();
		if (literal.kind === ts.SyntaxKind.TrueKeyword) return z.literal(true);
		if (literal.kind === ts.SyntaxKind.FalseKeyword) return z.literal(false);
		if (ts.isStringLiteral(literal)) return z.literal(literal.text);
		if (ts.isNumericLiteral(literal)) return z.literal(Number(literal.text));
		if (ts.isPrefixUnaryExpression(literal) && ts.isNumericLiteral(literal.operand)) return z.literal(-Number(literal.operand.text));
	}
	if (ts.isTypeLiteralNode(node)) return objectSchema(node);
	switch (node.kind) {
		case ts.SyntaxKind.StringKeyword:
			return z.string();
		case ts.SyntaxKind.NumberKeyword:
			return z.number();
		case ts.SyntaxKind.BooleanKeyword:
			return z.boolean();
		case ts.SyntaxKind.NullKeyword:
			return z.null();
		case ts.SyntaxKind.UndefinedKeyword:
			return z.undefined();
		case ts.SyntaxKind.NeverKeyword:
			return z.never();
		default:
			return z.unknown();
	}
}

function objectSchema(node: ts.TypeLiteralNode): Schema {
	const index = node.members.find(ts.isIndexSignatureDeclaration);
	if (index) return z.record(z.string(), toSchema(index.type));
	const shape: Record<string, Schema> = {};
	for (const member of node.members) {
		const type = memberType(member);
		if (!type) continue;
		const schema = toSchema(type);
		shape[memberName(member)] = ts.isPropertySignature(member) && member.questionToken ? z.optional(schema) : schema;
	}
	return z.object(shape);
}
