// The reference queries of daemon/queries/refs/ for Go, Java, Rust, C, C++
// and C#: what each construct of a realistic file turns into.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parse/symbols.h"

namespace comp::parse {
namespace {

using lang::Language;

// "call fmt.Println @26 in pkg.server.Server.Start", "import strings as str @5 in <top>",
// "import math : * @6 in <top>": kind, qualifier, name, alias, line, enclosing scope.
std::string render(const ParseResult& result, const Reference& ref) {
  std::string out = ref.kind + " ";
  if (ref.kind == "import") {
    out += ref.qualifier;
    if (!ref.name.empty()) out += " : " + ref.name;
  } else {
    if (!ref.qualifier.empty()) out += ref.qualifier + ".";
    out += ref.name;
  }
  if (!ref.alias.empty()) out += " as " + ref.alias;
  out += " @" + std::to_string(ref.line) + " in ";
  out += ref.from >= 0 ? result.symbols[static_cast<std::size_t>(ref.from)].scope : "<top>";
  return out;
}

std::vector<std::string> references(Language language, std::string_view source, std::string_view path) {
  SymbolExtractor extractor;
  ParseResult result = extractor.extract(language, source, path);
  EXPECT_FALSE(result.has_syntax_errors) << (result.errors.empty() ? "" : result.errors.front());
  std::vector<std::string> out;
  for (const Reference& ref : result.references) out.push_back(render(result, ref));
  return out;
}

TEST(ReferenceQueries, GoCompiles) { EXPECT_EQ(query_error(Language::kGo), ""); }
TEST(ReferenceQueries, JavaCompiles) { EXPECT_EQ(query_error(Language::kJava), ""); }
TEST(ReferenceQueries, RustCompiles) { EXPECT_EQ(query_error(Language::kRust), ""); }
TEST(ReferenceQueries, CCompiles) { EXPECT_EQ(query_error(Language::kC), ""); }
TEST(ReferenceQueries, CppCompiles) { EXPECT_EQ(query_error(Language::kCpp), ""); }
TEST(ReferenceQueries, CSharpCompiles) { EXPECT_EQ(query_error(Language::kCSharp), ""); }

TEST(ReferenceQueries, Go) {
  constexpr std::string_view kSource = R"(package server

import (
	"fmt"
	str "strings"
	. "math"
	_ "embed"

	"example.com/app/store"
)

type Base struct{ id int }

type Server struct {
	Base
	*store.Pool
	items []*Item
	byID  map[string]store.Record
}

type Reader interface {
	Closer
	Read(p []byte) (Result, error)
}

func (s *Server) Start(addr string) (*Result, error) {
	fmt.Println(str.ToUpper(addr), Sqrt(2))
	h := &Handler{Name: addr}
	rec := store.Record{}
	s.Base.init(len(s.items))
	var r Reader = h
	return run(r, rec)
}
)";
  // The blank import binds nothing; predeclared names (int, string, error,
  // len) and the method's own receiver type are no references.
  std::vector<std::string> expected = {
      "import fmt @4 in <top>",
      "import strings as str @5 in <top>",
      "import math : * @6 in <top>",
      "import example.com/app/store @9 in <top>",
      "inherit Base @15 in pkg.server.server.Server",
      "inherit store.Pool @16 in pkg.server.server.Server",
      "reference Item @17 in pkg.server.server.Server.items",
      "reference store.Record @18 in pkg.server.server.Server.byID",
      "inherit Closer @22 in pkg.server.server.Reader",
      "reference Result @23 in pkg.server.server.Reader.Read",
      "reference Result @26 in pkg.server.server.Server.Start",
      "call fmt.Println @27 in pkg.server.server.Server.Start",
      "call str.ToUpper @27 in pkg.server.server.Server.Start",
      "call Sqrt @27 in pkg.server.server.Server.Start",
      "call Handler @28 in pkg.server.server.Server.Start",
      "call store.Record @29 in pkg.server.server.Server.Start",
      "call s.Base.init @30 in pkg.server.server.Server.Start",
      "reference Reader @31 in pkg.server.server.Server.Start",
      "call run @32 in pkg.server.server.Server.Start",
  };
  EXPECT_EQ(references(Language::kGo, kSource, "pkg/server/server.go"), expected);
}

TEST(ReferenceQueries, Java) {
  constexpr std::string_view kSource = R"(package com.acme;

import java.util.List;
import java.util.*;
import static org.junit.Assert.assertEquals;
import static com.acme.util.Strings.*;

public class OrderService extends BaseService<Order> implements Runnable, com.acme.api.Handler {
  private final Repository repo;

  @Override
  public Result handle(Request req) throws IOException {
    Order order = new Order(req.id());
    Validator.check(order);
    this.repo.save(order);
    super.handle(req);
    process(order);
    return new com.acme.Result(order);
  }
}

interface Store extends Closeable {}
)";
  const std::string cls = "com.acme.OrderService.OrderService";
  std::vector<std::string> expected = {
      "import java.util.List @3 in <top>",
      "import java.util : * @4 in <top>",
      "import org.junit.Assert.assertEquals @5 in <top>",
      "import com.acme.util.Strings : * @6 in <top>",
      "inherit BaseService @8 in " + cls,
      "reference Order @8 in " + cls,
      "implement Runnable @8 in " + cls,
      "implement com.acme.api.Handler @8 in " + cls,
      "reference Repository @9 in " + cls + ".repo",
      "reference Override @11 in " + cls + ".handle",
      "reference Result @12 in " + cls + ".handle",
      "reference Request @12 in " + cls + ".handle",
      "reference IOException @12 in " + cls + ".handle",
      "reference Order @13 in " + cls + ".handle",
      "call Order @13 in " + cls + ".handle",
      "call req.id @13 in " + cls + ".handle",
      "call Validator.check @14 in " + cls + ".handle",
      "call this.repo.save @15 in " + cls + ".handle",
      "call super.handle @16 in " + cls + ".handle",
      "call process @17 in " + cls + ".handle",
      "call com.acme.Result @18 in " + cls + ".handle",
      "inherit Closeable @22 in com.acme.OrderService.Store",
  };
  EXPECT_EQ(references(Language::kJava, kSource, "com/acme/OrderService.java"), expected);
}

TEST(ReferenceQueries, Rust) {
  constexpr std::string_view kSource = R"(use std::collections::HashMap;
use crate::geo::{Point, transform::rotate as turn, self};

mod util;

pub trait Shape: Debug + fmt::Display {
    fn area(&self) -> f64;
}

pub struct Circle {
    center: Point,
    tags: HashMap<String, Tag>,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        let c = Circle { center: Point::origin(), tags: HashMap::new() };
        self.check();
        util::log(&c);
        println!("{}", helper(c.center));
        3.14
    }
}
)";
  // `mod util;` is a module of its own file: the reference sits in the
  // module symbol. The trait's implementation belongs to the impl block
  // (named Circle). Standard macros are left out, and a macro's arguments are
  // a token tree to the grammar: `helper` in println! is not seen.
  std::vector<std::string> expected = {
      "import std::collections : HashMap @1 in <top>",
      "import crate::geo : Point @2 in <top>",
      "import crate::geo::transform : rotate as turn @2 in <top>",
      "import crate::geo as geo @2 in <top>",
      "import self::util @4 in src.shapes.util",
      "inherit Debug @6 in src.shapes.Shape",
      "inherit fmt.Display @6 in src.shapes.Shape",
      "reference Point @11 in src.shapes.Circle.center",
      "reference HashMap @12 in src.shapes.Circle.tags",
      "reference String @12 in src.shapes.Circle.tags",
      "reference Tag @12 in src.shapes.Circle.tags",
      "implement Shape @15 in src.shapes.Circle",
      "call Circle @17 in src.shapes.Circle.area",
      "call Point.origin @17 in src.shapes.Circle.area",
      "call HashMap.new @17 in src.shapes.Circle.area",
      "call self.check @18 in src.shapes.Circle.area",
      "call util.log @19 in src.shapes.Circle.area",
  };
  EXPECT_EQ(references(Language::kRust, kSource, "src/shapes.rs"), expected);
}

TEST(ReferenceQueries, C) {
  constexpr std::string_view kSource = R"(#include <stdio.h>
#include "server.h"

typedef struct client client;

struct server {
    list *clients;
    struct config cfg;
};

static client *create_client(server_t *srv, int fd) {
    client *c = zmalloc(sizeof(client));
    connection *conn = (connection *) srv->factory->create(fd);
    srv->ops->init(c);
    listAddNodeTail(srv->clients, c);
    return c;
}
)";
  // Calls through members keep the member path as receiver.
  std::vector<std::string> expected = {
      "import stdio.h : * @1 in <top>",
      "import server.h : * @2 in <top>",
      "reference client @4 in src.server.client",
      "reference list @7 in src.server.server.clients",
      "reference config @8 in src.server.server.cfg",
      "reference client @11 in src.server.create_client",
      "reference server_t @11 in src.server.create_client",
      "reference client @12 in src.server.create_client",
      "call zmalloc @12 in src.server.create_client",
      "reference connection @13 in src.server.create_client",
      "reference connection @13 in src.server.create_client",
      "call srv.factory.create @13 in src.server.create_client",
      "call srv.ops.init @14 in src.server.create_client",
      "call listAddNodeTail @15 in src.server.create_client",
  };
  EXPECT_EQ(references(Language::kC, kSource, "src/server.c"), expected);
}

TEST(ReferenceQueries, Cpp) {
  constexpr std::string_view kSource = R"(#include <vector>
#include "ui/widget.h"

namespace ui {

class Button : public Widget, private input::Clickable, public Base<Button> {
 public:
  std::vector<Child> children;
  void draw(Canvas& canvas) const;
};

void Button::draw(Canvas& canvas) const {
  auto* painter = new Painter(canvas);
  gfx::util::flush();
  Factory<Button>::create();
  convert<int>(3);
  painter->paint(*this);
  this->layout();
  auto d = static_cast<Derived*>(painter);
}

}  // namespace ui
)";
  // A nested qualifier reads as its innermost scope (gfx::util::flush ->
  // util.flush); static_cast is no call, its type argument is a reference.
  const std::string button = "src.ui.button.ui.Button";
  std::vector<std::string> expected = {
      "import vector : * @1 in <top>",
      "import ui/widget.h : * @2 in <top>",
      "inherit Widget @6 in " + button,
      "inherit input.Clickable @6 in " + button,
      "inherit Base @6 in " + button,
      "reference Button @6 in " + button,
      "reference std.vector @8 in " + button + ".children",
      "reference Child @8 in " + button + ".children",
      "reference Canvas @9 in " + button + ".draw",
      "reference Canvas @12 in " + button + ".draw",
      "call Painter @13 in " + button + ".draw",
      "call util.flush @14 in " + button + ".draw",
      "reference Button @15 in " + button + ".draw",
      "call Factory.create @15 in " + button + ".draw",
      "call convert @16 in " + button + ".draw",
      "call painter.paint @17 in " + button + ".draw",
      "call this.layout @18 in " + button + ".draw",
      "reference Derived @19 in " + button + ".draw",
  };
  EXPECT_EQ(references(Language::kCpp, kSource, "src/ui/button.cpp"), expected);
}

TEST(ReferenceQueries, CSharp) {
  constexpr std::string_view kSource = R"(using System;
using System.Collections.Generic;
using static System.Math;
using Json = Newtonsoft.Json.JsonConvert;

namespace Acme.Services
{
    public class OrderService : ServiceBase<Order>, IOrderService
    {
        private readonly IRepository<Order> _repo;

        public Result Place(Order order)
        {
            var validator = new OrderValidator(order);
            validator.Validate();
            Helper.Check(order);
            _repo?.Save(order);
            Log(nameof(order));
            return new Acme.Models.Result(Json.SerializeObject(order));
        }
    }
}
)";
  // Base lists are all @inherit: the resolver tells classes from interfaces.
  const std::string cls = "Services.OrderService.Acme.Services.OrderService";
  std::vector<std::string> expected = {
      "import System : * @1 in <top>",
      "import System.Collections.Generic : * @2 in <top>",
      "import System.Math : * @3 in <top>",
      "import Newtonsoft.Json.JsonConvert as Json @4 in <top>",
      "inherit ServiceBase @8 in " + cls,
      "reference Order @8 in " + cls,
      "inherit IOrderService @8 in " + cls,
      "reference IRepository @10 in " + cls + "._repo",
      "reference Order @10 in " + cls + "._repo",
      "reference Result @12 in " + cls + ".Place",
      "reference Order @12 in " + cls + ".Place",
      "call OrderValidator @14 in " + cls + ".Place",
      "call validator.Validate @15 in " + cls + ".Place",
      "call Helper.Check @16 in " + cls + ".Place",
      "call _repo.Save @17 in " + cls + ".Place",
      "call Log @18 in " + cls + ".Place",
      "call Acme.Models.Result @19 in " + cls + ".Place",
      "call Json.SerializeObject @19 in " + cls + ".Place",
  };
  EXPECT_EQ(references(Language::kCSharp, kSource, "Services/OrderService.cs"), expected);
}

}  // namespace
}  // namespace comp::parse
